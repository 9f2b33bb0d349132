"""Failures whose errors quote what a user said, run on a traced service (issue 40, item 4).

Each scenario records a turn holding ``SECRET`` (or searches for it) and makes one part
fail with an error that quotes it: a provider, a model's malformed answer, the store, the
reranker, query expansion, the embedder, a consolidation, a background or cold formation,
and the real OpenAI adapter against a local server that echoes the secret back. What the
caller receives may quote it; the telemetry and the library's logs may not.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from datetime import timedelta
from typing import Any

from eden_memory.adapters.llms.openai import OpenAILLM
from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import (
    EdenMemoryError,
    InvalidLLMOutputError,
    ProviderError,
    StoreUnavailableError,
)
from eden_memory.domain.models import Message, Role
from eden_memory.domain.reranking import RerankBy
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.ports.embedder import Embeddings
from eden_memory.ports.telemetry import Telemetry
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores
from tests.application.story import START
from tests.providers import openai_wire
from tests.providers.conftest import FAST
from tests.providers.standin import Reply, StandIn

SECRET = "tangerine-4417-vault"
SAID = f"my locker code is {SECRET}"
AGENT = AgentMemoryConfig("nova", user_memory_enabled=True, agent_memory_enabled=True)
FACT = {"facts": [{"content": f"Ana's locker code is {SECRET}", "scope": "user"}]}
NOTES = {"user": [f"Ana keeps her locker code {SECRET} handy"]}

Scenario = Callable[[Telemetry], Awaitable[None]]


def service(telemetry: Telemetry, llm: Any, **options: Any) -> MemoryService:
    settings = options.pop("settings", MemorySettings())
    embedder = options.pop("embedder", KeywordEmbedder())
    stores = options.pop("stores", memory_stores())
    clock = FakeClock(START)
    return MemoryService(stores, embedder, llm, clock, settings, telemetry=telemetry, **options)


def said(count: int = 1) -> list[Message]:
    """``count`` messages of Ana's, each quoting the secret."""
    return [
        Message(
            id=f"m{i}",
            role=Role.USER,
            text=SAID if i == 0 else f"{SAID}, I said it {i + 1} times",
            sent_at=START + timedelta(seconds=i),
            author_id="ana",
        )
        for i in range(count)
    ]


async def formed(memory: MemoryService) -> None:
    """A turn, then the session's end (its formation and consolidation); errors are the
    caller's to read and are let go here."""
    chat = memory.conversation(AGENT, "s1", ["ana"])
    with suppress(EdenMemoryError):
        await memory.record_messages(chat, said(), background=False)
        await memory.end_session(chat)


def quoting(kind: type[Exception] = ProviderError) -> Exception:
    return kind(f"the upstream answer was: {SAID!r}")


async def provider_error(telemetry: Telemetry) -> None:
    await formed(service(telemetry, ScriptedLLM(by_purpose={"fact_extraction": [quoting()]})))


async def malformed_answer(telemetry: Telemetry) -> None:
    bad = [quoting(InvalidLLMOutputError)] * 2  # asked again once
    await formed(service(telemetry, ScriptedLLM(by_purpose={"fact_extraction": bad})))


async def rejected_fact(telemetry: Telemetry) -> None:
    first_person = {"facts": [{"content": f"I keep my locker code {SECRET}", "scope": "user"}]}
    llm = ScriptedLLM(lambda request, schema: {}, by_purpose={"fact_extraction": [first_person]})
    await formed(service(telemetry, llm))


async def store_error(telemetry: Telemetry) -> None:
    stores = memory_stores()

    async def refuse(*args: object, **kwargs: object) -> Any:
        raise StoreUnavailableError(f"write of {SAID!r} timed out")

    stores.facts.add_facts = refuse  # type: ignore[method-assign]
    llm = ScriptedLLM(lambda request, schema: {}, by_purpose={"fact_extraction": [FACT]})
    await formed(service(telemetry, llm, stores=stores))


async def searched(memory: MemoryService) -> None:
    at = START.isoformat()
    facts = ["Ana keeps a locker at the gym", "Ana's gym is in Braga", "Ana swims on Fridays"]
    rows = [{"content": c, "agent_id": "nova", "user_id": "ana", "formed_at": at} for c in facts]
    await memory.admin.add_facts(rows)
    chat = memory.conversation(AGENT, "s1", ["ana"])
    with suppress(EdenMemoryError):
        await memory.search_facts(chat, [f"Ana gym locker {SECRET}"])


async def rerank_failure(telemetry: Telemetry) -> None:
    llm = ScriptedLLM(by_purpose={"rerank": [quoting()]})
    search = SearchSettings(rerank=RerankBy.LLM, abstain_below=0.0)
    await searched(service(telemetry, llm, settings=MemorySettings(search=search)))


async def expansion_failure(telemetry: Telemetry) -> None:
    llm = ScriptedLLM(by_purpose={"expand": [quoting()]})
    search = SearchSettings(expand=True, abstain_below=0.0)
    await searched(service(telemetry, llm, settings=MemorySettings(search=search)))


class QuotingEmbedder(KeywordEmbedder):
    """Embeds passages; a query fails with an error that quotes it."""

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        if role is TextRole.QUERY:
            raise ProviderError(f"cannot embed {list(texts)!r}")
        return await super().embed(texts, role)


async def embedder_failure(telemetry: Telemetry) -> None:
    await searched(service(telemetry, ScriptedLLM([]), embedder=QuotingEmbedder()))


def consolidating(answer: dict[str, Any] | Exception) -> ScriptedLLM:
    """Extraction keeps a note; the consolidation the session's end asks for gives ``answer``."""
    script: dict[str, list[dict[str, Any] | Exception]] = {
        "fact_extraction": [FACT],
        "reflection_extraction": [NOTES],
        "consolidation": [answer],
    }
    return ScriptedLLM(lambda r, s: {}, by_purpose=script)


async def consolidation_failure(telemetry: Telemetry) -> None:
    await formed(service(telemetry, consolidating(quoting())))


async def consolidation_echo(telemetry: Telemetry) -> None:
    rule = "Drop what is finished or no longer true."  # a line of the prompt's rules
    echo = {"content": f"Rules:\n- {rule}\n- Ana: {SAID}"}
    await formed(service(telemetry, consolidating(echo)))


async def background_failure(telemetry: Telemetry) -> None:
    memory = service(telemetry, ScriptedLLM(by_purpose={"fact_extraction": [quoting()]}))
    chat = memory.conversation(AGENT, "s1", ["ana"])
    await memory.record_messages(chat, said(45))  # due: formed in the background
    await memory.wait_for_background()


async def cold_failure(telemetry: Telemetry) -> None:
    memory = service(telemetry, ScriptedLLM(by_purpose={"fact_extraction": [quoting()]}))
    chat = memory.conversation(AGENT, "s1", ["ana"])
    await memory.record_messages(chat, said(4), background=False)
    await memory.process_cold_sessions(now=START + timedelta(hours=2))


async def through_openai(telemetry: Telemetry, *replies: Reply) -> None:
    """The real OpenAI adapter (the Responses API) against a server answering ``replies``."""
    with StandIn(openai_wire.respond, openai_wire.authorize) as server:
        server.queue(*replies)
        llm = OpenAILLM(api="responses", api_key="sk-test", base_url=f"{server.url}/v1", **FAST)
        try:
            await formed(service(telemetry, llm))
        finally:
            await llm.aclose()


async def openai_error_body(telemetry: Telemetry) -> None:
    body = openai_wire.error_body(f"Invalid input near {SAID!r}", "invalid_request_error", None)
    await through_openai(telemetry, *[Reply(400, body)] * 4)


async def openai_malformed_json(telemetry: Telemetry) -> None:
    """A body that is not JSON, then an answer whose JSON breaks off; each quotes the user."""
    body = '{"id": "resp_1", "output": [{"text": "' + SAID
    broken = '{"facts": [{"content": "' + SAID + '", "scope": '
    replies = [Reply(200, body), Reply(200, openai_wire.response_body(broken))]
    await through_openai(telemetry, *replies * 2)


SCENARIOS: dict[str, Scenario] = {
    "provider error": provider_error,
    "malformed answer": malformed_answer,
    "rejected fact": rejected_fact,
    "store error": store_error,
    "rerank failure": rerank_failure,
    "expansion failure": expansion_failure,
    "embedder failure": embedder_failure,
    "consolidation failure": consolidation_failure,
    "consolidation echo": consolidation_echo,
    "background formation failure": background_failure,
    "cold formation failure": cold_failure,
    "openai error body": openai_error_body,
    "openai malformed json": openai_malformed_json,
}
