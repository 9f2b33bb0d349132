"""A row that does not decode is a ``StoreCorruptedError`` naming the file, table and record.

Each test damages one kind of row behind the store's back, as a flipped byte would, and
reads it back through the ports: the caller learns where the damage is, never gets a raw
pydantic, json or numpy exception, and never sees the stored text quoted.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.errors import StoreCorruptedError
from eden_memory.domain.ids import FactId, ReflectionId
from eden_memory.ports.stores import FactQuery, Stores
from tests.unit.adapters.damaged_stores import KEYS, SPACE, T0, VIEWER, A, S, build

Read = Callable[[Stores], Awaitable[object]]

CASES: list[tuple[str, str, Read, str]] = [
    (
        "a fact that is not JSON",
        "UPDATE facts SET doc = substr(doc, 1, 40) WHERE id = 'fact-3'",
        lambda s: s.facts.get_facts([FactId("fact-3")]),
        "the facts row 'fact-3' does not decode: Fact: Invalid JSON",
    ),
    (
        "a fact whose record is another's",
        "UPDATE facts SET doc = (SELECT doc FROM facts WHERE id = 'fact-5') WHERE id = 'fact-3'",
        lambda s: s.fact_records.list_facts(FactQuery(A)),
        "the facts row 'fact-3' does not decode: its record is of fact 'fact-5'",
    ),
    (
        "a fact field of the wrong type",
        "UPDATE facts SET doc = json_set(doc, '$.version', 'two') WHERE id = 'fact-53'",
        lambda s: s.fact_reads.recent_facts(VIEWER, T0 - timedelta(days=1), 40),
        "the facts row 'fact-53' does not decode: Fact version:",
    ),
    (
        "a fact that is not JSON, read for its origin",
        "UPDATE facts SET doc = substr(doc, 1, 40) WHERE id = 'fact-3'",
        lambda s: s.fact_reads.fact_origins([FactId("fact-3")], VIEWER),
        "the facts row 'fact-3' does not decode: its record is not JSON",
    ),
    (
        "a fact whose source session is a number",
        "UPDATE facts SET doc = json_set(doc, '$.source_session_id', 7) WHERE id = 'fact-3'",
        lambda s: s.fact_reads.fact_origins([FactId("fact-3")], VIEWER),
        "the facts row 'fact-3' does not decode: its record's source session is not text",
    ),
    (
        "an access count that is text",
        "UPDATE facts SET access_count = 'many' WHERE id = 'fact-3'",
        lambda s: s.facts.get_facts([FactId("fact-3")]),
        "the facts row 'fact-3' does not decode: an integer column holds str",
    ),
    (
        "a truncated vector",
        "UPDATE facts SET vector = substr(vector, 1, 12) WHERE id = 'fact-3'",
        lambda s: s.facts.get_vectors([FactId("fact-3")]),
        "the facts row 'fact-3' does not decode: its vector is 12 bytes, not 32",
    ),
    (
        "a reflection that does not validate",
        "UPDATE reflections SET doc = json_remove(doc, '$.formed_at') WHERE id = 'r0-2'",
        lambda s: s.buffers.unabsorbed(list(KEYS)),
        "the reflections row 'r0-2' does not decode: Reflection formed_at: Field required",
    ),
    (
        "a blob that is not JSON",
        "UPDATE consolidated SET doc = '{' WHERE scope = 'agent'",
        lambda s: s.note_records.list_consolidated(A),
        "the consolidated row ('agent', 'agent', '') does not decode",
    ),
    (
        "a blob of another key",
        "UPDATE consolidated SET doc = (SELECT doc FROM consolidated WHERE scope = 'user') "
        "WHERE scope = 'agent'",
        lambda s: s.buffers.get_consolidated(list(KEYS)),
        "the consolidated row ('agent', 'agent', '') does not decode: its record is of",
    ),
    (
        "a session toggle of the wrong type",
        "UPDATE sessions SET profile = json_set(profile, '$.premium', 'yes')",
        lambda s: s.sessions.get_session(A, S),
        "the sessions row ('agent', 'session') does not decode: TypeError: the profile's 'premium'",
    ),
    (
        "a message that does not validate",
        "UPDATE messages SET doc = json_set(doc, '$.role', 'wizard') WHERE message_id = 'm1'",
        lambda s: s.sessions.claim_messages(A, S, "claim", T0, 60, 1, 100),
        "the messages row 2 does not decode: Message role:",
    ),
    (
        "text that is not UTF-8",
        "UPDATE reflections SET doc = CAST(x'7b22ff' || CAST(doc AS BLOB) AS TEXT) "
        "WHERE id = 'r1-1'",
        lambda s: s.buffers.get_reflection(ReflectionId("r1-1")),
        "the column 'doc' of a row is not UTF-8 text",
    ),
]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pristine") / "memory.db"
    asyncio.run(build(path))
    return path


@pytest.mark.parametrize(
    ("sql", "read", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
async def test_a_damaged_row_names_the_file_and_the_record(
    pristine: Path, tmp_path: Path, sql: str, read: Read, expected: str
) -> None:
    path = tmp_path / "memory.db"
    shutil.copy(pristine, path)
    with sqlite3.connect(path) as raw:
        raw.execute(sql)
    async with await open_sqlite(path) as stores:
        with pytest.raises(StoreCorruptedError) as raised:
            await read(stores)
    message = str(raised.value)
    assert message.startswith(f"the store file {path} is damaged: ")
    assert expected in message
    assert "likes tea" not in message
    assert "green tea" not in message


async def test_vectors_read_from_damaged_rows_name_the_fact(pristine: Path, tmp_path: Path) -> None:
    """With no vector log to open from, a search reads the rows' vectors, and checks them."""
    path = tmp_path / "memory.db"
    shutil.copy(pristine, path)
    with sqlite3.connect(path) as raw:
        raw.execute("DELETE FROM vector_logs")  # every partition loads from the rows
        raw.execute("UPDATE facts SET vector = CAST(vector || x'00' AS BLOB) WHERE id = 'fact-8'")
    async with await open_sqlite(path) as stores:
        with pytest.raises(StoreCorruptedError, match="'fact-8' does not decode: its vector is 33"):
            await stores.ranking.semantic_ranking([1.0] * 8, VIEWER, 5, space=SPACE)
