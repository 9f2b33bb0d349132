"""A hostile host, through the public face, never corrupts a store (property test).

Each example opens a fresh store (memory, SQLite, mongomock), gives a bystander agent a
few facts and a blob, then lets a host throw type-plausible junk at every door: ids with
operators, dots, slashes, control and unicode characters, texts with NUL, lone surrogates,
markup and huge sizes, message shapes of every SDK with odd keys and ``None`` content, facts
with naive or far-future dates, edits of unknown ids, malformed and crafted import lines.
Afterwards:

1. every failure was an ``EdenMemoryError`` with a message (no driver or parser error);
2. the store is intact: each listed fact reads back, the context parses as XML, search
   works, an export imports into a fresh store of the same kind with the same facts;
3. the bystander's export is what it was before.

Below the property, the examples it found, each reduced to the smallest failing input.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import pytest

from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM
from tests.application.stores import StoreMaker
from tests.application.story import START, Story

BYSTANDER, BOB = "bystander", "bob"
HOST_AGENT = "nova"
Action = Callable[[MemoryService, list[str]], Awaitable[object]]

HEADER = {
    "kind": "header",
    "format": "eden-memory-export",
    "version": 1,
    "agent_id": HOST_AGENT,
    "exported_at": "2026-03-02T09:00:00+00:00",
    "embedding": {"model": "keyword-hash", "dimension": 256},
}


def _service(stores: Any) -> MemoryService:
    return MemoryService(stores, KeywordEmbedder(), ScriptedLLM(Story()), FakeClock(START))


def _fact_line(vector: object) -> str:
    fact = {
        "id": "f1",
        "content": "Alice lives in Oslo",
        "scope": "user",
        "agent_id": HOST_AGENT,
        "user_id": "alice",
        "formed_at": "2026-03-01T09:00:00Z",
        "created_at": "2026-03-02T09:00:00Z",
        "updated_at": "2026-03-02T09:00:00Z",
        "embedding_model": "keyword-hash",
        "embedding_dim": 256,
    }
    return json.dumps({"kind": "fact", "fact": fact, "vector": vector})


# Examples the property found -------------------------------------------------------


async def test_an_import_line_nested_too_deep_is_invalid_input(make_store: StoreMaker) -> None:
    memory = _service(await make_store())
    with pytest.raises(InvalidInputError, match="line 1 of the import is not valid"):
        await memory.admin.import_lines(["[" * 5000])


@pytest.mark.parametrize(
    "vector", ["a" * 256, ["a"] * 256, [True] * 256, [[0.5]] * 256, {"0": 1.0}, [None] * 256]
)
async def test_an_imported_vector_must_be_a_list_of_numbers(
    make_store: StoreMaker, vector: object
) -> None:
    """A string or a list of strings of the store's dimension reached the store: SQLite
    raised numpy's ValueError, the others kept it; a dict was silently re-embedded."""
    memory = _service(await make_store())
    with pytest.raises(InvalidInputError, match=r"line 2 of the import is not valid.*vector"):
        await memory.admin.import_lines([json.dumps(HEADER), _fact_line(vector)])
    assert await memory.admin.list_facts(HOST_AGENT, status=None) == []


@pytest.mark.parametrize("component", ["NaN", "Infinity", "1e308", "1" + "0" * 400])
async def test_an_imported_vector_must_be_finite_in_float32(
    make_store: StoreMaker, component: str
) -> None:
    """SQLite refused these mid-import (after earlier pages were written); the other stores
    kept them, and every cosine they take part in is NaN."""
    memory = _service(await make_store())
    line = _fact_line([0.5] * 256).replace("[0.5, ", f"[{component}, ", 1)
    with pytest.raises(InvalidInputError, match=r"line 2 of the import is not valid.*vector"):
        await memory.admin.import_lines([json.dumps(HEADER), line])
    assert await memory.admin.list_facts(HOST_AGENT, status=None) == []


async def test_an_imported_vector_of_numbers_is_kept(make_store: StoreMaker) -> None:
    memory = _service(await make_store())
    vector = [0.0] * 255 + [1]
    report = await memory.admin.import_lines([json.dumps(HEADER), _fact_line(vector)])
    assert (report.facts, report.facts_reembedded) == (1, 0)
    [fact] = await memory.admin.list_facts(HOST_AGENT)
    assert fact.content == "Alice lives in Oslo"


EDGE_TIMES = ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"]


@pytest.mark.parametrize("at", EDGE_TIMES)
async def test_a_time_that_leaves_the_calendar_in_utc_is_refused(
    make_store: StoreMaker, at: str
) -> None:
    """``astimezone(UTC)`` raised ``OverflowError``, which pydantic passes through: it
    escaped ``add_facts`` (meant to reject the item), ``record_messages`` and imports."""
    memory = _service(await make_store())
    item = {"content": "Alice lives in Oslo", "agent_id": HOST_AGENT, "user_id": "alice"}
    report = await memory.admin.add_facts([{**item, "formed_at": at}])
    assert [(r.index, "out of range" in r.reason) for r in report.rejected] == [(0, True)]
    chat = memory.conversation(HOST_AGENT, "s1", ["alice"])
    with pytest.raises(InvalidInputError, match="out of range"):
        await memory.record_messages(chat, [{"role": "user", "text": "hi", "sent_at": at}])
    line = _fact_line([0.5] * 256).replace("2026-03-01T09:00:00Z", at)
    with pytest.raises(InvalidInputError, match="line 2 of the import is not valid"):
        await memory.admin.import_lines([json.dumps(HEADER), line])
    assert await memory.admin.list_facts(HOST_AGENT, status=None) == []


@pytest.mark.parametrize(
    "odd",
    [
        {"source_message_ids": ["\ud800"]},
        {"source_message_ids": ["$gt", ""]},
        {"source_session_id": "a b"},
        {"source_session_id": "\x00"},
    ],
)
async def test_a_facts_source_ids_are_checked_like_every_id(
    make_store: StoreMaker, odd: dict[str, Any]
) -> None:
    """A lone surrogate in ``source_message_ids`` made SQLite's JSON encoding raise
    ``PydanticSerializationError`` out of ``add_facts``; the other stores kept any string."""
    memory = _service(await make_store())
    item = {
        "content": "Alice lives in Oslo",
        "agent_id": HOST_AGENT,
        "user_id": "alice",
        "formed_at": "2026-03-01T09:00:00Z",
        **odd,
    }
    report = await memory.admin.add_facts([item])
    assert [(r.index, "is not valid" in r.reason) for r in report.rejected] == [(0, True)]
    assert await memory.admin.list_facts(HOST_AGENT, status=None) == []


LONE = "\ud800"


@pytest.mark.parametrize("field", ["text", "author_id"])
async def test_a_message_with_a_lone_surrogate_is_refused(
    make_store: StoreMaker, field: str
) -> None:
    """No store can encode a lone surrogate: SQLite raised ``PydanticSerializationError``
    out of ``record_messages``; the batch is refused whole instead, naming the field."""
    memory = _service(await make_store())
    chat = memory.conversation(HOST_AGENT, "s1", ["alice"])
    message = {"role": "user", "text": "hello", "author_id": "alice", field: f"a{LONE}b"}
    with pytest.raises(InvalidInputError, match=r"messages\[0\].*surrogate"):
        await memory.record_messages(chat, [message])
    state = (await memory.record_messages(chat, [])).state
    assert state is None or state.pending_messages == 0


def test_memory_instructions_with_a_lone_surrogate_are_refused() -> None:
    with pytest.raises(InvalidInputError, match=r"memory_instructions.*surrogate"):
        AgentMemoryConfig(HOST_AGENT, memory_instructions=f"Note {LONE} pets")


async def test_an_edit_reason_with_a_lone_surrogate_is_refused(make_store: StoreMaker) -> None:
    memory = _service(await make_store())
    item = {
        "content": "Alice lives in Oslo",
        "agent_id": HOST_AGENT,
        "user_id": "alice",
        "formed_at": "2026-03-01T09:00:00Z",
    }
    [fact_id] = (await memory.admin.add_facts([item])).added
    with pytest.raises(InvalidInputError, match="surrogate"):
        await memory.admin.edit_fact(HOST_AGENT, fact_id, "Alice lives in Rome", reason=LONE)
    fact = await memory.admin.get_fact(HOST_AGENT, fact_id)
    assert (fact.content, fact.version) == ("Alice lives in Oslo", 1)


@pytest.mark.parametrize("count", [2**63, 10**20])
async def test_a_page_larger_than_any_store_counts_is_refused(
    make_store: StoreMaker, count: int
) -> None:
    """SQLite raised ``OverflowError`` (no 64-bit integer holds it) out of ``list_facts``."""
    memory = _service(await make_store())
    with pytest.raises(InvalidInputError, match="at most"):
        await memory.admin.list_facts(HOST_AGENT, limit=count)
    with pytest.raises(InvalidInputError, match="at most"):
        await memory.admin.list_facts(HOST_AGENT, offset=count)
    assert await memory.admin.list_facts(HOST_AGENT, limit=2**63 - 1) == []


@pytest.mark.parametrize("limit", [-1, 2**63, "5", 2.5, True])
async def test_the_cold_sweeps_limit_is_checked_like_a_page(
    make_store: StoreMaker, limit: Any
) -> None:
    """It went to the store unchecked: SQLite read -1 as "no limit" and overflowed on 2**63."""
    memory = _service(await make_store())
    with pytest.raises(InvalidInputError, match="limit must be an integer"):
        await memory.process_cold_sessions(limit=limit)


async def test_the_cold_sweeps_time_must_be_aware(make_store: StoreMaker) -> None:
    memory = _service(await make_store())
    with pytest.raises(InvalidInputError, match="timezone-aware"):
        await memory.process_cold_sessions(now=datetime(2026, 3, 2, 9, 0))


@pytest.mark.parametrize("size", [0, -1, 2**63, "5"])
async def test_the_reembed_batch_size_is_checked(make_store: StoreMaker, size: Any) -> None:
    """0 re-embedded nothing and said so; -1 read as "no limit" on SQLite; 2**63 overflowed."""
    memory = _service(await make_store())
    with pytest.raises(InvalidInputError, match="batch_size must be"):
        await memory.admin.reembed([HOST_AGENT], batch_size=size)
