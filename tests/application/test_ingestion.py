"""Direct fact ingestion: validation, dedup by hash, batched embedding, searchable results."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig, Scope
from eden_memory.domain.text import MAX_LINE_CHARS
from eden_memory.ports.stores import Stores
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SAID = NOW - timedelta(days=30)


def _service() -> tuple[MemoryService, Stores, KeywordEmbedder]:
    stores, embedder = memory_stores(), KeywordEmbedder()
    return MemoryService(stores, embedder, ScriptedLLM([]), FakeClock(NOW)), stores, embedder


def _item(content: str, **extra: Any) -> dict[str, Any]:
    return {
        "content": content,
        "scope": "user",
        "agent_id": "nova",
        "user_id": "alice",
        "formed_at": SAID.isoformat(),
    } | extra


async def test_facts_are_stored_as_given_and_found_by_search() -> None:
    memory, _, embedder = _service()
    report = await memory.admin.add_facts(
        [
            _item("Alice's email is alice@acme.example", source_message_ids=["m1"]),
            FactInput(
                content="The office opens at 8 am",
                scope=Scope.AGENT,
                agent_id="nova",
                formed_at=SAID,
                source_session_id="s1",
            ),
        ]
    )
    assert len(report.added) == 2
    assert report.duplicates == 0
    assert not report.rejected
    assert report.embedding_calls == 1
    assert embedder.calls == 1
    assert report.usage.llm_calls == 0
    facts = {f.content: f for f in await memory.admin.list_facts("nova")}
    email = facts["Alice's email is alice@acme.example"]
    assert email.scope is Scope.USER
    assert email.user_id == "alice"
    assert email.formed_at == SAID
    assert email.source_message_ids == ("m1",)
    assert facts["The office opens at 8 am"].source_session_id == "s1"
    conv = memory.conversation(AgentMemoryConfig("nova"), "s2", ["alice"])
    found = await memory.search_facts(conv, ["Alice email"])
    assert found.results[0].fact.id == email.id


async def test_duplicates_within_the_input_and_against_the_store_are_counted() -> None:
    memory, _, _ = _service()
    await memory.admin.add_facts([_item("Alice likes tea")])
    report = await memory.admin.add_facts(
        [
            _item("alice likes tea."),  # same normalised text as the stored fact
            _item("Alice likes jazz"),
            _item("Alice  likes JAZZ"),  # same as the previous item
            _item("Alice likes jazz", user_id="bob"),  # another user: not a duplicate
        ]
    )
    assert report.duplicates == 2
    assert len(report.added) == 2
    assert len(await memory.admin.list_facts("nova")) == 3
    assert report.received == 4


async def test_bad_items_are_rejected_with_reasons_and_the_rest_is_added() -> None:
    memory, _, _ = _service()
    report = await memory.admin.add_facts(
        [
            _item("fine"),
            _item(""),
            _item("x" * (MAX_LINE_CHARS + 1)),
            _item("no time", formed_at="2026-01-01T10:00:00"),  # naive
            _item("user fact without a user", user_id=None),
            _item("session scope", scope="session"),
            _item("bad agent", agent_id={"$ne": 1}),
            {"content": "missing fields"},
            _item("unknown field", colour="red"),
        ]
    )
    assert len(report.added) == 1
    reasons = {r.index: r.reason for r in report.rejected}
    assert sorted(reasons) == list(range(1, 9))
    assert "empty" in reasons[1]
    assert str(MAX_LINE_CHARS) in reasons[2]
    assert "timezone" in reasons[3]
    assert "user_id" in reasons[4]
    assert "session" in reasons[5]


async def test_the_word_limit_is_only_applied_when_asked() -> None:
    memory, _, _ = _service()
    long_fact = " ".join(["word"] * 60)
    assert len((await memory.admin.add_facts([_item(long_fact)])).added) == 1
    report = await memory.admin.add_facts([_item(long_fact + " more")], max_words=30)
    assert "61 words; the limit is 30" in report.rejected[0].reason


async def test_embedding_happens_once_per_batch() -> None:
    memory, _, embedder = _service()
    items = [_item(f"Fact number {i}") for i in range(10)]
    report = await memory.admin.add_facts(items, batch_size=4)
    assert len(report.added) == 10
    assert report.embedding_calls == 3 == embedder.calls
    assert report.usage.texts_embedded == 10


async def test_host_ids_make_a_retry_harmless_and_are_not_reused() -> None:
    memory, _, _ = _service()
    first = await memory.admin.add_facts([_item("Alice lives in Paris", id="host-1")])
    assert first.added == ["host-1"]
    again = await memory.admin.add_facts(
        [_item("Alice lives in Paris", id="host-1"), _item("Alice lives in Rome", id="host-1")]
    )
    assert again.duplicates == 1
    assert "already stored" in again.rejected[0].reason
    twice = await memory.admin.add_facts(
        [_item("Alice has a cat", id="h2"), _item("Alice has a dog", id="h2")]
    )
    assert twice.added == ["h2"]
    assert "twice" in twice.rejected[0].reason


async def test_batch_size_is_checked() -> None:
    memory, _, _ = _service()
    with pytest.raises(InvalidInputError):
        await memory.admin.add_facts([_item("x")], batch_size=0)


async def test_nothing_to_add_makes_no_embedding_call() -> None:
    memory, _, embedder = _service()
    report = await memory.admin.add_facts([])
    assert report.received == 0
    assert embedder.calls == 0
