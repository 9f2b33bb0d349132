"""A keyword index damaged by an earlier release is found and rebuilt when the file is opened."""

from __future__ import annotations

import logging
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.keyword.mending import TOKENIZE_V1
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import Stores

T0 = datetime(2026, 2, 1, 9, 30, tzinfo=UTC)
SPACE = EmbeddingSpace("test-embedder", 2)
A, U = AgentId("agent"), UserId("user")
VIEWER = FactVisibility(A, U, frozenset({Scope.AGENT, Scope.USER}))

# The two update triggers of schema versions 1 and 2: SQLite fires the later one first, so
# an edit added the new text before removing the old one.
OLD_TRIGGERS = """
CREATE TRIGGER facts_fts_unindex AFTER UPDATE OF content, status ON facts
WHEN old.status = 'active' BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, content) VALUES ('delete', old.pk, old.content);
END;
CREATE TRIGGER facts_fts_reindex AFTER UPDATE OF content, status ON facts
WHEN new.status = 'active' BEGIN
    INSERT INTO facts_fts (rowid, content) VALUES (new.pk, new.content);
END;
"""


def fact(n: int, content: str, status: FactStatus = FactStatus.ACTIVE) -> Fact:
    return Fact(
        id=FactId(f"fact-{n}"),
        content=content,
        scope=Scope.USER,
        agent_id=A,
        user_id=U,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model=SPACE.model,
        embedding_dim=SPACE.dimension,
        status=status,
    )


async def version_2_file(path: Path, *, edit: bool) -> None:
    """A store file as release 2 left it, after a user edited ``fact-1`` (when ``edit``)."""
    facts = [fact(1, "hello world"), fact(2, "hello you"), fact(3, "hello old", FactStatus.RETIRED)]
    async with await open_sqlite(path) as store:
        await store.facts.add_facts(facts, [[1.0, 0.0]] * 3)
    with sqlite3.connect(path) as raw:
        raw.execute("DROP TABLE facts_vocab")  # the index without stems (before version 5)
        raw.execute("DROP TABLE facts_fts")
        raw.execute(
            "CREATE VIRTUAL TABLE facts_fts USING fts5(content, content = 'facts', "
            f"content_rowid = 'pk', tokenize = '{TOKENIZE_V1}')"
        )
        raw.execute("CREATE VIRTUAL TABLE facts_vocab USING fts5vocab(facts_fts, row)")
        raw.execute(
            "INSERT INTO facts_fts (rowid, content) "
            "SELECT pk, content FROM facts WHERE status = 'active'"
        )
        raw.execute("DROP TRIGGER facts_fts_update")
        raw.executescript(OLD_TRIGGERS)
        raw.execute("ALTER TABLE sessions DROP COLUMN formation_plan")  # added by version 4
        raw.execute("PRAGMA user_version = 2")
        if edit:
            raw.execute(
                "UPDATE facts SET content = 'hello there', "
                "doc = json_set(doc, '$.content', 'hello there') WHERE id = 'fact-1'"
            )


def raw_search(path: Path, word: str) -> list[int]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT rowid FROM facts_fts WHERE facts_fts MATCH ? ORDER BY bm25(facts_fts)", (word,)
        )
        return [row[0] for row in rows]


async def found(store: Stores, word: str) -> set[str]:
    return {hit.id for hit in await store.ranking.keyword_ranking(word, VIEWER, 10)}


async def test_the_old_triggers_did_damage_the_index(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await version_2_file(path, edit=True)
    with pytest.raises(sqlite3.DatabaseError, match="malformed"):
        raw_search(path, "there")


async def test_a_damaged_index_is_rebuilt_on_open_reported_once_and_nothing_is_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "memory.db"
    await version_2_file(path, edit=True)
    with caplog.at_level(logging.WARNING, logger="eden_memory.store"):
        async with await open_sqlite(path) as store:
            assert await found(store, "hello") == {"fact-1", "fact-2"}
            assert await found(store, "there") == {"fact-1"}
            assert await found(store, "world") == set()
            assert await found(store, "old") == set()  # retired facts stay out of the index
            stored = await store.facts.get_facts([FactId(f"fact-{n}") for n in (1, 2, 3)])
            assert [f.content for f in stored] == ["hello there", "hello you", "hello old"]
        async with await open_sqlite(path) as store:
            assert await found(store, "there") == {"fact-1"}
    repairs = [r for r in caplog.records if "keyword index" in r.getMessage()]
    assert len(repairs) == 1
    assert "rebuilt" in repairs[0].getMessage()


async def test_a_sound_old_file_is_upgraded_without_a_repair(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "memory.db"
    await version_2_file(path, edit=False)
    with caplog.at_level(logging.WARNING, logger="eden_memory.store"):
        async with await open_sqlite(path) as store:
            await store.facts.update_fact(
                fact(2, "hello you").revised("hello there", T0, space=SPACE), None, 1
            )
            assert await found(store, "hello") == {"fact-1", "fact-2"}
            assert await found(store, "there") == {"fact-2"}
    assert not [r for r in caplog.records if "keyword index" in r.getMessage()]
    with sqlite3.connect(path) as raw:
        triggers = {
            name for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
    # Version 7 indexes added facts in one statement per batch, not by a trigger.
    assert triggers == {"facts_fts_delete", "facts_fts_update"}
