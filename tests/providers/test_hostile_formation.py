"""A hostile answer met during a formation or a metered call: an ordinary provider error, and
nothing lost: the messages stay pending for the next formation, the meter keeps counting."""

from __future__ import annotations

from typing import Any

import pytest

from eden_memory.adapters.embedders.openai import OpenAIEmbedder
from eden_memory.adapters.llms.openai import OpenAILLM
from eden_memory.application.metering import MeteredLLM, UsageMeter
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import ProviderError
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.usage import LLMTally
from eden_memory.testing import FakeClock, ScriptedLLM, memory_stores
from tests.application.story import START, World, make_world
from tests.application.test_story import STORY
from tests.providers import openai_wire
from tests.providers.conftest import FAST
from tests.providers.schemas import GOOD, Facts, request
from tests.providers.standin import Reply, StandIn

AGENT = AgentMemoryConfig("nova")
SAID = (  # four: a formation's minimum
    "my email is alice@example.com",
    "I work at Acme Corp",
    "please keep answers short",
    "the Mars festival budget is 50000 dollars",
)
GATEWAY_PAGE = Reply(200, "<html><body>502 Bad Gateway</body></html>", content_type="text/html")


async def form_and_fail(world: World) -> None:
    conversation = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(conversation, world.messages(*SAID))

    with pytest.raises(ProviderError, match=r"HTTP 200, text/html\): not JSON"):
        await world.memory.form_memories(conversation)

    state = await world.stores.sessions.get_session("nova", "s1")  # type: ignore[arg-type]
    assert state is not None
    assert state.pending_messages == len(SAID)
    assert state.claim_id is None  # given back at once, not left to expire


async def test_a_page_of_html_for_an_answer_leaves_the_messages_pending(
    openai_server: StandIn,
) -> None:
    openai_server.queue(*[GATEWAY_PAGE] * 3)
    llm = OpenAILLM(api="chat", api_key="sk-test", base_url=f"{openai_server.url}/v1", **FAST)
    try:
        await form_and_fail(make_world(STORY, llm=llm))
    finally:
        await llm.aclose()
    assert len(openai_server.requests) == 1  # not retried: the gateway would answer the same


async def test_a_page_of_html_for_embeddings_leaves_the_messages_pending(
    openai_server: StandIn,
) -> None:
    openai_server.queue(*[GATEWAY_PAGE] * 3)
    embedder = OpenAIEmbedder(dimensions=8, api_key="sk-test", base_url=f"{openai_server.url}/v1")
    clock = FakeClock(START)
    stores = memory_stores()
    scripted = ScriptedLLM(STORY)
    service = MemoryService(stores, embedder, scripted, clock)
    world = World(service, stores, scripted, embedder, clock)  # type: ignore[arg-type]
    try:
        await form_and_fail(world)
    finally:
        await embedder.aclose()


async def test_a_token_count_written_as_a_string_fails_the_call_not_the_meter(
    openai_server: StandIn,
) -> None:
    body: dict[str, Any] = openai_wire.chat_body(GOOD)
    body["usage"]["prompt_tokens"] = "19"
    openai_server.queue(Reply(200, body), Reply(200, openai_wire.chat_body(GOOD)))
    meter = UsageMeter()
    inner = OpenAILLM(api="chat", api_key="sk-test", base_url=f"{openai_server.url}/v1", **FAST)
    llm = MeteredLLM(inner, meter)
    try:
        with pytest.raises(ProviderError, match=r"usage\.prompt_tokens: Input should be a valid"):
            await llm.generate(request("m"), Facts)
        await llm.generate(request("m"), Facts)
    finally:
        await inner.aclose()

    assert meter.snapshot().llm == {("fact_extraction", "m"): LLMTally(2, 1, 19, 10)}
