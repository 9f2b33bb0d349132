"""Schema version 5: the keyword index stems, the query skips stop words, old files are rebuilt."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.keyword import scoring as keyword
from eden_memory.adapters.stores.sqlite.keyword.mending import (
    TOKENIZE,
    TOKENIZE_V1,
    index_damaged,
)
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import Stores

T0 = datetime(2026, 2, 1, 9, 30, tzinfo=UTC)
SPACE = EmbeddingSpace("test-embedder", 2)
A, U = AgentId("agent"), UserId("user")
VIEWER = FactVisibility(A, U, frozenset({Scope.AGENT, Scope.USER}))

CORPUS = [
    "Caroline attended an LGBTQ support group on 7 May 2023",
    "Melanie signed up for a pottery class",
    "Caroline is researching adoption agencies",
    "The running club meets on Sundays",
    "Melanie ran a charity race for mental health",
]


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


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Stores]:
    async with await open_sqlite(tmp_path / "memory.db") as opened:
        facts = [fact(n, text) for n, text in enumerate(CORPUS)]
        await opened.facts.add_facts(facts, [[1.0, 0.0]] * len(facts))
        yield opened


async def found(store: Stores, text: str) -> list[str]:
    hits = await store.ranking.keyword_ranking(text, VIEWER, 10)
    return [f.content for f in await store.facts.get_facts([h.id for h in hits])]


async def test_a_word_finds_the_facts_holding_any_of_its_forms(store: Stores) -> None:
    assert await found(store, "attend") == [CORPUS[0]]
    assert await found(store, "groups") == [CORPUS[0]]
    assert await found(store, "researched agency") == [CORPUS[2]]
    assert await found(store, "meeting") == [CORPUS[3]]


async def test_a_question_is_searched_by_its_words_that_count(store: Stores) -> None:
    # "when", "did", "to", "the" are left out; "go" is in no fact.
    question = "When did Caroline go to the LGBTQ support group?"
    assert keyword.query_words(question) == ["Caroline", "go", "LGBTQ", "support", "group"]
    assert (await found(store, question))[0] == CORPUS[0]
    # Without the stop words, "the" no longer brings in the running club.
    assert await found(store, "the pottery class") == [CORPUS[1]]


async def test_a_query_of_stop_words_only_keeps_every_word(store: Stores) -> None:
    assert keyword.query_words("Who is it?") == ["Who", "is", "it"]
    assert await found(store, "who is it") == [CORPUS[2]]  # the only fact holding "is"
    assert set(await found(store, "for what")) == {CORPUS[1], CORPUS[4]}
    assert await found(store, "?!") == []


async def test_words_of_one_stem_count_once(store: Stores) -> None:
    assert keyword.query_words("attend attending Attended groups group") == ["attend", "groups"]
    once = await store.ranking.keyword_ranking("attend", VIEWER, 5)
    repeated = await store.ranking.keyword_ranking("attend attending attended", VIEWER, 5)
    assert [h.score for h in repeated] == pytest.approx([h.score for h in once])


async def test_pruning_in_a_large_index_looks_words_up_by_their_stem(
    store: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keyword, "PRUNE_FROM_FACTS", 4)
    many = [fact(10 + n, f"Melanie paints landscape {n}") for n in range(6)]
    await store.facts.add_facts(many, [[1.0, 0.0]] * len(many))
    # "paintings" stems to "paint", in 6 of 11 facts: weightless, left out of the query.
    assert await store.ranking.keyword_ranking("paintings", VIEWER, 5) == []
    assert await found(store, "paintings pottery") == [CORPUS[1]]


def as_version_4(path: Path) -> None:
    """Put the file's keyword index back as versions 1-4 made it: no stemming."""
    with sqlite3.connect(path) as raw:
        raw.execute("DROP TABLE facts_vocab")
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
        raw.execute("PRAGMA user_version = 4")


def raw_matches(path: Path, word: str) -> list[int]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?", (word,))
        return [row[0] for row in rows]


def index_sql(path: Path) -> str:
    with sqlite3.connect(path) as raw:
        (sql,) = raw.execute("SELECT sql FROM sqlite_master WHERE name = 'facts_fts'").fetchone()
        return str(sql)


async def test_a_version_4_file_is_rebuilt_with_stemming_and_nothing_is_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "memory.db"
    facts = [fact(n, text) for n, text in enumerate(CORPUS)]
    retired = fact(9, "Caroline attended a retired group", FactStatus.RETIRED)
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([*facts, retired], [[1.0, 0.0]] * (len(facts) + 1))
    as_version_4(path)
    assert raw_matches(path, "attending") == []  # version 4: words as written
    assert raw_matches(path, "attended") == [1]
    with caplog.at_level(logging.WARNING, logger="eden_memory.store"):
        async with await open_sqlite(path) as store:
            assert await found(store, "attending groups") == [CORPUS[0]]
            stored = await store.facts.get_facts([f.id for f in [*facts, retired]])
            assert stored == [*facts, retired]
            edited = facts[3].revised("The running club meets on Mondays", T0, space=SPACE)
            await store.facts.update_fact(edited, None, 1)
            assert await found(store, "monday") == [edited.content]
            assert await found(store, "sundays") == []
    assert not caplog.records  # a planned rebuild, not a repair
    assert TOKENIZE in index_sql(path)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert not index_damaged(raw)


async def test_a_new_file_stems_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    await (await open_sqlite(path)).close()
    assert TOKENIZE in index_sql(path)
    with sqlite3.connect(path) as raw:
        assert not index_damaged(raw)
