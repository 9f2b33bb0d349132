"""A formation, a search and two contexts, read back from the OpenTelemetry SDK's in-memory
exporter and metric reader: span names, nesting, GenAI attributes and token metrics."""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry.trace import SpanKind, StatusCode
from pydantic import BaseModel

from eden_memory.application.metering import MeteredLLM, UsageMeter
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import ProviderError
from eden_memory.ports.llm import LLMRequest, LLMResult, T
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores
from tests.application.story import START, World
from tests.application.test_story import AGENT, STORY
from tests.telemetry.conftest import Recorded

STAGES = ["fact_extraction", "dedup", "reflection_extraction", "fact_writes", "buffer"]


async def _served(recorded: Recorded) -> tuple[MemoryService, UsageMeter, Any]:
    """A formation of one turn, a search and two contexts, on a traced service."""
    meter = UsageMeter()
    clock = FakeClock(START)
    memory = MemoryService(
        memory_stores(),
        KeywordEmbedder(),
        ScriptedLLM(STORY),
        clock,
        meter=meter,
        telemetry=recorded.telemetry,
    )
    conv = memory.conversation(AGENT, "s1", ["alice"])
    world = World(memory, memory_stores(), ScriptedLLM(STORY), KeywordEmbedder(), clock)
    said = world.messages(
        "my email is alice@example.com",
        "the Mars festival budget is 50000 dollars",
        "please keep answers short",
        "thanks",
    )
    await memory.record_messages(conv, said)
    report = await memory.form_memories(conv)
    assert report is not None
    assert report.facts_added
    await memory.search_facts(conv, ["What is Alice's email?"])
    await memory.get_context(conv)
    await memory.get_context(conv)
    return memory, meter, report


def _attrs(span: Any) -> dict[str, Any]:
    return dict(span.attributes or {})


async def test_a_formation_is_a_span_with_a_child_per_stage_and_model_call(
    recorded: Recorded,
) -> None:
    _, _, report = await _served(recorded)
    (formation,) = recorded.spans("eden_memory.formation")
    assert _attrs(formation)["eden_memory.formation.trigger"] == "cold"
    assert _attrs(formation)["eden_memory.formation.facts_added"] == len(report.facts_added)
    for name in STAGES:
        (stage,) = recorded.spans(f"eden_memory.formation.{name}")
        assert stage.parent is not None
        assert stage.parent.span_id == formation.context.span_id, name
    (extraction,) = recorded.spans("eden_memory.formation.fact_extraction")
    (call,) = [
        s for s in recorded.spans() if _attrs(s).get("eden_memory.purpose") == "fact_extraction"
    ]
    assert call.parent is not None
    assert call.parent.span_id == extraction.context.span_id


async def test_model_calls_follow_the_genai_conventions(recorded: Recorded) -> None:
    _, meter, _ = await _served(recorded)
    chats = [s for s in recorded.spans() if _attrs(s).get("gen_ai.operation.name") == "chat"]
    assert chats
    for span in chats:
        a = _attrs(span)
        assert span.name == f"chat {a['gen_ai.request.model']}"
        assert span.kind is SpanKind.CLIENT
        assert a["gen_ai.provider.name"] == "gcp.gemini"
        assert a["gen_ai.request.model"] == "gemini-3-flash-preview"
        assert a["gen_ai.response.model"]
        assert a["gen_ai.usage.input_tokens"] > 0
        assert a["gen_ai.usage.output_tokens"] > 0
    spent = meter.snapshot()
    llm_input = sum(t.input_tokens for t in spent.llm.values())
    llm_output = sum(t.output_tokens for t in spent.llm.values())
    assert sum(_attrs(s)["gen_ai.usage.input_tokens"] for s in chats) == llm_input
    assert sum(_attrs(s)["gen_ai.usage.output_tokens"] for s in chats) == llm_output
    assert len(chats) == sum(t.calls for t in spent.llm.values())
    embeds = [s for s in recorded.spans() if _attrs(s).get("gen_ai.operation.name") == "embeddings"]
    assert embeds
    assert {_attrs(s)["gen_ai.provider.name"] for s in embeds} == {"keyword"}
    assert all(s.name.startswith("embeddings ") for s in embeds)


async def test_token_and_duration_metrics_add_up_to_the_calls(recorded: Recorded) -> None:
    _, meter, _ = await _served(recorded)
    spent = meter.snapshot()
    tokens = recorded.points("gen_ai.client.token.usage")
    chat = {
        p.attributes["gen_ai.token.type"]: p.sum
        for p in tokens
        if p.attributes["gen_ai.operation.name"] == "chat"
    }
    assert chat == {
        "input": sum(t.input_tokens for t in spent.llm.values()),
        "output": sum(t.output_tokens for t in spent.llm.values()),
    }
    assert all(p.attributes["gen_ai.request.model"] for p in tokens)
    durations = recorded.points("gen_ai.client.operation.duration")
    calls = {p.attributes["gen_ai.operation.name"]: p.count for p in durations}
    assert calls["chat"] == sum(t.calls for t in spent.llm.values())
    assert calls["embeddings"] == sum(t.calls for t in spent.embeddings.values())


async def test_a_search_is_a_span_with_its_retrievers_and_fusion(recorded: Recorded) -> None:
    await _served(recorded)
    (search,) = recorded.spans("eden_memory.search")
    a = _attrs(search)
    assert a["eden_memory.search.mode"] == "hybrid"
    assert a["eden_memory.search.queries"] == 1
    assert a["eden_memory.search.results"] >= 1
    (semantic,) = recorded.spans("eden_memory.search.semantic")
    (keyword,) = recorded.spans("eden_memory.search.keyword")
    (fusion,) = recorded.spans("eden_memory.search.fusion")
    for child in (semantic, keyword, fusion):
        assert child.parent is not None
        assert child.parent.span_id == search.context.span_id
    assert _attrs(semantic)["eden_memory.search.retriever"] == "semantic"
    assert (
        _attrs(fusion)["eden_memory.search.semantic_hits"]
        == _attrs(semantic)["eden_memory.search.hits"]
    )
    assert (
        _attrs(fusion)["eden_memory.search.keyword_hits"]
        == _attrs(keyword)["eden_memory.search.hits"]
    )
    assert _attrs(fusion)["eden_memory.search.fused_hits"] >= a["eden_memory.search.results"]
    (embedding,) = [
        s
        for s in recorded.spans()
        if s.parent is not None and s.parent.span_id == search.context.span_id
        if _attrs(s).get("gen_ai.operation.name") == "embeddings"
    ]
    assert _attrs(embedding)["eden_memory.purpose"] == "query"


async def test_each_context_says_which_cache_level_served_it(recorded: Recorded) -> None:
    await _served(recorded)
    contexts = recorded.spans("eden_memory.context")
    served = [_attrs(s)["eden_memory.context.cached_in"] for s in contexts]
    assert served == ["built", "process"]
    assert _attrs(contexts[0])["eden_memory.context.facts"] >= 1
    steps = recorded.points("eden_memory.operation.duration")
    by_level = {
        p.attributes.get("eden_memory.context.cached_in"): p.count
        for p in steps
        if p.attributes["eden_memory.operation"] == "eden_memory.context"
    }
    assert by_level == {"built": 1, "process": 1}


class _Answer(BaseModel):
    text: str


class _Down:
    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        raise ProviderError("the provider is down")


async def test_a_failed_call_is_marked_with_its_error_type(recorded: Recorded) -> None:
    llm = MeteredLLM(_Down(), UsageMeter(), recorded.telemetry)
    request = LLMRequest("gemini-3-flash-preview", "system", "prompt", "fact_extraction")
    with pytest.raises(ProviderError):
        await llm.generate(request, _Answer)
    (span,) = recorded.spans("chat gemini-3-flash-preview")
    assert span.status.status_code is StatusCode.ERROR
    assert _attrs(span)["error.type"] == "ProviderError"
    assert "gen_ai.usage.input_tokens" not in _attrs(span)
    (point,) = recorded.points("gen_ai.client.operation.duration")
    assert point.attributes["error.type"] == "ProviderError"
    assert recorded.points("gen_ai.client.token.usage") == []
