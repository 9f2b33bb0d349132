"""ScriptedLLM: scripts per purpose or by function, recording, validation, exhaustion."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from eden_memory.adapters.llms.scripted import ScriptedLLM, ScriptExhaustedError
from eden_memory.domain.errors import InvalidLLMOutputError, ProviderRateLimitError
from eden_memory.ports.llm import LLMRequest


class Answer(BaseModel):
    text: str


class LookAlike(BaseModel):
    text: str


def request(purpose: str = "dedup", prompt: str = "12345678") -> LLMRequest:
    return LLMRequest(model="fast-model", system="", prompt=prompt, purpose=purpose)


async def test_items_of_every_kind_are_served_in_order() -> None:
    llm = ScriptedLLM([Answer(text="model"), {"text": "dict"}, '{"text": "json"}'])
    values = [(await llm.generate(request(), Answer)).value.text for _ in range(3)]
    assert values == ["model", "dict", "json"]


async def test_a_model_of_another_class_is_validated_into_the_schema() -> None:
    result = await ScriptedLLM([LookAlike(text="same shape")]).generate(request(), Answer)
    assert result.value == Answer(text="same shape")


async def test_purpose_scripts_come_before_the_default() -> None:
    llm = ScriptedLLM(
        [{"text": "default"}],
        by_purpose={"fact_extraction": [{"text": "facts"}]},
    )
    assert (await llm.generate(request("fact_extraction"), Answer)).value.text == "facts"
    assert (await llm.generate(request("consolidation"), Answer)).value.text == "default"


async def test_a_function_answers_every_call_sync_or_async() -> None:
    def echo(req: LLMRequest, schema: type[BaseModel]) -> dict[str, str]:
        return {"text": f"{req.purpose}:{schema.__name__}"}

    async def shout(req: LLMRequest, schema: type[BaseModel]) -> str:
        return f'{{"text": "{req.prompt.upper()}"}}'

    llm = ScriptedLLM(echo, by_purpose={"dedup": shout})
    assert (await llm.generate(request("reflections"), Answer)).value.text == "reflections:Answer"
    assert (await llm.generate(request("dedup", "abc"), Answer)).value.text == "ABC"
    assert llm.remaining("dedup") is None


async def test_an_exception_item_is_raised() -> None:
    llm = ScriptedLLM([ProviderRateLimitError("429"), {"text": "after the retry"}])
    with pytest.raises(ProviderRateLimitError):
        await llm.generate(request(), Answer)
    assert (await llm.generate(request(), Answer)).value.text == "after the retry"


async def test_an_off_schema_answer_is_invalid_output_naming_the_schema() -> None:
    llm = ScriptedLLM([{"txt": "typo"}])
    with pytest.raises(InvalidLLMOutputError, match="'dedup' does not match Answer"):
        await llm.generate(request(), Answer)


async def test_every_request_is_recorded_even_failed_ones() -> None:
    llm = ScriptedLLM(by_purpose={"dedup": [{"nope": 1}], "reflections": [{"text": "ok"}]})
    with pytest.raises(InvalidLLMOutputError):
        await llm.generate(request("dedup"), Answer)
    await llm.generate(request("reflections"), Answer)
    assert [r.purpose for r in llm.requests] == ["dedup", "reflections"]
    assert llm.calls_for("dedup") == [request("dedup")]


async def test_running_out_of_answers_says_for_which_purpose() -> None:
    llm = ScriptedLLM(by_purpose={"dedup": [{"text": "only one"}]})
    await llm.generate(request("dedup"), Answer)
    assert llm.remaining("dedup") == 0
    with pytest.raises(ScriptExhaustedError, match="no response left for purpose 'dedup'"):
        await llm.generate(request("dedup"), Answer)
    with pytest.raises(ScriptExhaustedError, match="'consolidation'"):
        await llm.generate(request("consolidation"), Answer)


async def test_tokens_are_estimated_from_characters() -> None:
    llm = ScriptedLLM([{"text": "abcd"}])
    result = await llm.generate(request(prompt="x" * 40), Answer)
    assert result.model == "fast-model"
    assert result.input_tokens == 10
    assert result.output_tokens == len('{"text":"abcd"}') // 4 + 1
