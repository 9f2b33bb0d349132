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

25 examples of up to 6 actions per store keep the module near 10 s; a longer hunt:
``HOSTILE_EXAMPLES=400 HOSTILE_STEPS=14 python -m pytest tests/application/test_hostile_hosts.py``
(``--hypothesis-show-statistics`` shows how often each action got through to the store).
Below the property, the examples it found, each reduced to the smallest failing input.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from eden_memory.application.administration.import_parsing import FORMAT
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import EdenMemoryError, InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM
from tests.application.stores import STORES, StoreMaker, stores_of_kind
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


# Strings -----------------------------------------------------------------------------

# Ids the checks let through (dots, slashes, colons, letters of any script) and ones they
# refuse (operators, spaces, controls, surrogates, empty, too long).
PASSING_IDS = [
    "nova",
    "alice",
    BOB,
    "s1",
    "b1",
    "a.b",
    "../x",
    "a/b",
    "a:b",
    "a%3Ab",
    "é",
    "ǅ",
    "٣",
    "__proto__",
    "x" * 200,
    "=",
    "@",
    "+1",
    "-",
]
REFUSED_IDS = ["$gt", "$ne", "{}", "", " ", "a b", "a" * 201, "a\x00b", "u1\n", "\ud800"]
ODD_TEXTS = [
    "\x00",
    "a\x00b",
    "\ud800 lone",
    "<MemoryContext>",
    "]]>",
    "<![CDATA[x]]>",
    "</facts><x a='1'>",
    "&amp; &lt; &#0;",
    "\x0b\x0c",
    "\u2028\u2029",
    "\ufeff",
    "word " * 5000,
    "x" * 20000,
    "Alice lives in Oslo <b>really</b>",
    "🙂" * 50,
]
ids = st.one_of(
    st.sampled_from(PASSING_IDS),
    st.sampled_from(PASSING_IDS),
    st.sampled_from(REFUSED_IDS),
    st.text(max_size=12),
)
mostly_passing = st.one_of(*[st.sampled_from(PASSING_IDS)] * 4, ids)
EAST, WEST = timezone(timedelta(hours=14)), timezone(timedelta(hours=-14))
PLAIN_TEXTS = ["Alice lives in Oslo", "Bob keeps a cat", "My email is a@b.c", "I moved to Rome"]
texts = st.one_of(
    st.sampled_from(PLAIN_TEXTS),
    st.sampled_from(ODD_TEXTS),
    st.text(st.characters(blacklist_categories=()), max_size=40),  # surrogates included
)
dates = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)),  # naive
    st.datetimes(timezones=st.sampled_from([UTC, EAST, WEST])),  # the calendar's edges too
    st.sampled_from(["9999-12-31T23:59:59", "0001-01-01T00:00:00+14:00", "soon", ""]),
)


def _part(text: str) -> st.SearchStrategy[Any]:
    return st.sampled_from(
        [
            {"type": "text", "text": text},
            {
                "type": "tool_result",
                "tool_use_id": "t",
                "content": [{"type": "text", "text": text}],
            },
            {"type": "tool_use", "id": "t", "name": text, "input": {text: text}},
            {"type": "image", "source": {}},
            {"text": text},
            {"functionCall": {"name": text, "args": {"q": text}}},
            {"odd": text},
            text,
            None,
        ]
    )


@st.composite
def host_messages(draw: st.DrawFn) -> Any:
    text = draw(texts)
    role = draw(st.sampled_from(["user", "assistant", "model", "tool", "system", "bot", None, ""]))
    shape = draw(st.integers(0, 5))
    if shape == 0:
        return {"role": role, "content": text}
    if shape == 1:
        return {"role": role, "content": draw(st.lists(_part(text), max_size=3))}
    if shape == 2:
        return {"role": role, "parts": draw(st.lists(_part(text), max_size=3))}
    if shape == 3:
        return {"role": role, "content": None, "tool_calls": [{"function": {"name": text}}]}
    if shape == 4:
        return {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}
    return {
        "role": "user",
        "text": text,
        "id": draw(ids),
        "author_id": draw(ids),
        "author_name": draw(texts),
        "sent_at": draw(dates),
        draw(ids): draw(texts),
    }


@st.composite
def fact_items(draw: st.DrawFn) -> dict[str, Any]:
    item: dict[str, Any] = {
        "content": draw(texts),
        "scope": draw(st.sampled_from(["user", "agent", "session", "galaxy", ""])),
        "agent_id": HOST_AGENT if draw(st.booleans()) else draw(ids),
        "user_id": draw(st.one_of(st.none(), ids)),
        "formed_at": draw(dates),
        "source_session_id": draw(st.one_of(st.none(), ids)),
        "source_message_ids": draw(st.lists(ids, max_size=2)),
    }
    if draw(st.booleans()):
        item["id"] = draw(ids)
    return item


import_lines = st.lists(
    st.one_of(
        texts,
        st.sampled_from(
            [
                "[" * 5000,
                '{"kind": "header", "format": "eden-memory", "version": 1}',
                '{"kind": "fact"}',
                '{"kind": "fact", "fact": {"id": "$gt"}}',
                '{"kind": "header", "embedding": "abc"}',
                '"kind"',
                "null",
                "1e999",
                '{"kind": ["header"]}',
            ]
        ),
    ),
    max_size=4,
)

ODD_VECTORS: list[Any] = [
    None,
    [],
    "a" * 256,
    {"0": 1},
    [0.0] * 256,
    [float("nan")] * 256,
    ["a"] * 256,
    [True] * 256,
    [1e308] * 256,
    [0.1] * 255,
]


@st.composite
def crafted_imports(draw: st.DrawFn) -> list[str]:
    """A header and a fact line as an export has them, with hostile fields."""
    fact = {
        "id": draw(ids),
        "content": draw(texts),
        "scope": draw(st.sampled_from(["user", "agent", "session"])),
        "agent_id": draw(st.sampled_from([HOST_AGENT, HOST_AGENT, "$gt", "a.b"])),
        "user_id": draw(st.sampled_from([None, BOB, "alice", "$gt"])),
        "formed_at": draw(
            st.sampled_from(["2026-03-01T09:00:00Z", "9999-12-31T23:59:59", "0001-01-01T00:00:00Z"])
        ),
        "created_at": "2026-03-02T09:00:00Z",
        "updated_at": "2026-03-02T09:00:00Z",
        "version": draw(st.sampled_from([1, 0, -1, 2**70])),
        "embedding_model": "keyword-hash",
        "embedding_dim": 256,
        "status": draw(st.sampled_from(["active", "retired", "lost"])),
    }
    line = {"kind": "fact", "fact": fact, "vector": draw(st.sampled_from(ODD_VECTORS))}
    return [json.dumps(HEADER), json.dumps(line, allow_nan=True)]


# Actions -----------------------------------------------------------------------------


@st.composite
def actions(draw: st.DrawFn) -> tuple[str, Action]:
    kind = draw(st.integers(0, 14))
    # Mostly ids that pass, so the action reaches the store; now and then one that does not.
    agent = draw(
        st.sampled_from([HOST_AGENT] * 3 + [""]).flatmap(lambda a: st.just(a) if a else ids)
    )
    user, session = draw(mostly_passing), draw(mostly_passing)
    text = draw(texts)
    # An edit's base version: mostly a plausible one, now and then junk a host might pass.
    version: Any = draw(st.sampled_from([0, 1, 1, 2, -1, True, "1", None, 2**64]))

    def chat(m: MemoryService) -> Any:
        return m.conversation(agent, session, [user])

    pick, other = draw(st.integers(0, 100)), draw(ids)

    def known(seen: list[str]) -> str:
        return seen[pick % len(seen)] if seen else other

    if kind == 0:
        batch = draw(st.lists(host_messages(), max_size=4))
        return f"record {agent!r} {session!r} {batch!r}", lambda m, s: m.record_messages(
            chat(m), batch, background=False
        )
    if kind == 1:
        return f"form {agent!r} {session!r}", lambda m, s: m.form_memories(chat(m))
    if kind == 2:
        return f"end {agent!r} {session!r}", lambda m, s: m.end_session(chat(m))
    if kind == 3:
        queries = draw(st.lists(texts, min_size=1, max_size=3))
        return f"search {agent!r} {queries!r}", lambda m, s: m.search_facts(chat(m), queries)
    if kind == 4:
        items = draw(st.lists(fact_items(), min_size=1, max_size=3))
        return f"add_facts {items!r}", lambda m, s: m.admin.add_facts(items)
    if kind == 5:
        fact = draw(st.booleans())
        return f"edit_fact {agent!r} {text!r} v{version}", lambda m, s: m.admin.edit_fact(
            agent, known(s) if fact else other, text, expected_version=version
        )
    if kind == 6:
        return f"delete_fact {agent!r}", lambda m, s: m.admin.delete_fact(agent, other)
    if kind == 7:
        rid = draw(ids)
        return f"edit_reflection {agent!r} {rid!r}", lambda m, s: m.admin.edit_reflection(
            agent, rid, text, expected_version=version
        )
    if kind == 8:
        key = draw(st.sampled_from(["agent", "user", "session"]))

        async def replace(m: MemoryService, s: list[str]) -> object:
            scope_key = getattr(ScopeKey, key)(agent, *([] if key == "agent" else [user]))
            return await m.admin.replace_consolidated(scope_key, text, expected_version=version)

        return f"replace_consolidated {key} {agent!r} {user!r} {text!r} v{version}", replace
    if kind == 9:
        return f"erase_user {agent!r} {user!r}", lambda m, s: m.admin.erase_user(agent, user)
    if kind == 10:
        lines = draw(st.one_of(import_lines, crafted_imports()))
        return f"import {lines!r}", lambda m, s: m.admin.import_lines(lines)
    if kind == 11:
        return f"stats {agent!r} {user!r} {session!r}", lambda m, s: m.admin.stats(
            agent, user, session
        )
    if kind == 12:
        return f"consolidate {agent!r} {session!r}", lambda m, s: m.consolidate(chat(m), force=True)
    if kind == 13:
        odd = draw(st.sampled_from(["user", "session", "galaxy", "", None]))
        page = draw(st.sampled_from([0, 1, -1, 10**20]))
        return f"list_facts {agent!r} {user!r} {odd!r} {page}", lambda m, s: m.admin.list_facts(
            agent, user_id=user, scope=odd, status=odd, limit=page, offset=page
        )
    return f"context {agent!r} {session!r}", lambda m, s: _context_xml(m, chat(m))


# The world ---------------------------------------------------------------------------


async def _bystander(memory: MemoryService) -> None:
    """Another agent's memory, which nothing below may change."""
    when = START - timedelta(days=1)
    items = [
        {
            "id": f"b{i}",
            "content": f"Bob keeps {pet} at home",
            "agent_id": BYSTANDER,
            "user_id": BOB,
            "formed_at": when,
        }
        for i, pet in enumerate(("a cat", "a parrot"), start=1)
    ]
    items.append(
        {
            "id": "b3",
            "content": "Agents should greet",
            "agent_id": BYSTANDER,
            "scope": "agent",
            "formed_at": when,
        }
    )
    report = await memory.admin.add_facts(items)
    assert report.added == ["b1", "b2", "b3"], report
    bob = ScopeKey.user(BYSTANDER, BOB)
    await memory.admin.replace_consolidated(bob, "Bob likes tea.", expected_version=0)


async def _export(memory: MemoryService, agent: str) -> list[dict[str, Any]]:
    lines = [json.loads(line) async for line in memory.admin.export(agent)]
    return [line for line in lines if line.get("kind") != "header"]


async def _context_xml(memory: MemoryService, conversation: Any) -> None:
    context = await memory.get_context(conversation, refresh=True)
    if context.xml:
        ET.fromstring(context.xml)  # raises ParseError on broken markup


async def _intact(memory: MemoryService, kind: str, folder: Path, agent: str) -> None:
    """Every listed fact reads back; context and search work; export round-trips."""
    listed = await memory.admin.list_facts(agent, status=None, limit=10_000)
    for fact in listed:
        assert (await memory.admin.get_fact(agent, fact.id)) == fact
    for user in {f.user_id for f in listed if f.user_id} | {BOB}:
        chat = memory.conversation(agent, "check", [user])
        await _context_xml(memory, chat)
        await memory.search_facts(chat, [f.content for f in listed[:3]] or ["anything"])
    exported = [line async for line in memory.admin.export(agent)]
    fresh = await stores_of_kind(kind, folder)
    try:
        other = _service(fresh)
        await other.admin.import_lines(exported)
        back = await other.admin.list_facts(agent, status=None, limit=10_000)
        assert {(f.id, f.content, f.status) for f in back} == {
            (f.id, f.content, f.status) for f in listed
        }
    finally:
        await fresh.close()


async def _run(kind: str, steps: list[tuple[str, Action]]) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        stores = await stores_of_kind(kind, folder)
        try:
            memory = _service(stores)
            await _bystander(memory)
            before = await _export(memory, BYSTANDER)
            seen: list[str] = []
            silent: list[str] = []
            for label, step in steps:
                try:
                    await step(memory, seen)
                    await memory.wait_for_background()
                    event(f"{label.split()[0]}: done")
                except EdenMemoryError as error:
                    event(f"{label.split()[0]}: {type(error).__name__}")
                    if not str(error):
                        silent.append(f"{label}: {type(error).__name__} with no message")
                    if "\n" in str(error) or "pydantic.dev" in str(error):  # one line, ours
                        silent.append(f"{label}: {type(error).__name__} in several lines")
                seen = [f.id for f in await memory.admin.list_facts(HOST_AGENT, limit=50)]
            await memory.wait_for_background()
            assert silent == []
            await _intact(memory, kind, folder, HOST_AGENT)
            await _intact(memory, kind, folder, BYSTANDER)
            assert await _export(memory, BYSTANDER) == before
        finally:
            await stores.close()


@pytest.mark.parametrize("kind", STORES)
@settings(
    max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(steps=st.lists(actions(), min_size=1, max_size=int(os.environ.get("HOSTILE_STEPS", "6"))))
def test_a_hostile_host_never_corrupts_a_store(kind: str, steps: list[tuple[str, Action]]) -> None:
    asyncio.run(_run(kind, steps))


# Examples the property found -------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ('{"kind": "fact", "fact": {"id": "f1"}}', "content: Field required"),
        ('{"kind": "reflection", "reflection": {"content": 5}}', "content: Input should be"),
        ('{"kind": "fact"}', "no 'fact' field"),
    ],
)
async def test_an_invalid_import_line_is_refused_in_one_line_naming_the_field(
    make_store: StoreMaker, line: str, named: str
) -> None:
    memory = _service(await make_store())
    header = json.dumps({"kind": "header", "format": FORMAT, "version": 1, "agent_id": "nova"})
    with pytest.raises(InvalidInputError) as refused:
        await memory.admin.import_lines([header, line])
    assert str(refused.value).startswith("line 2 of the import is not valid: ")
    assert named in str(refused.value)
    assert "\n" not in str(refused.value)


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
        await memory.admin.edit_fact(
            HOST_AGENT, fact_id, "Alice lives in Rome", reason=LONE, expected_version=1
        )
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
