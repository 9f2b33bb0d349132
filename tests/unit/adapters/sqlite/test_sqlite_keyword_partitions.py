"""The keyword index by partition (schema version 10): a search's work follows the facts it
may see, its scores are those of version 9, and a version-9 file upgrades without loss."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.keyword import scoring as keyword
from eden_memory.adapters.stores.sqlite.keyword.mending import (
    TOKENIZE,
    UPDATE_TRIGGER_BY_PK,
    index_damaged,
)
from eden_memory.adapters.stores.sqlite.keyword.partitions import PK_BITS, rowid_ranges
from eden_memory.adapters.stores.sqlite.migrations.v01_layout import CREATE_V1
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import Stores

T0 = datetime(2026, 2, 1, tzinfo=UTC)
A = AgentId("agent")
U1 = UserId("u1")
ALICE = FactVisibility(A, U1, frozenset({Scope.AGENT, Scope.USER}))


def fact(n: int, content: str, user: str | None = None, agent: str = A) -> Fact:
    return Fact(
        id=FactId(f"fact-{n}"),
        content=content,
        scope=Scope.USER if user else Scope.AGENT,
        agent_id=AgentId(agent),
        user_id=UserId(user) if user else None,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model="m",
        embedding_dim=2,
    )


@given(st.sets(st.integers(1, 40)), st.integers(1, 40), st.integers(0, (1 << PK_BITS) - 1))
def test_the_ranges_hold_exactly_the_rowids_of_the_partitions_asked(
    numbers: set[int], number: int, pk: int
) -> None:
    ranges = rowid_ranges(numbers)
    rowid = (number << PK_BITS) | pk
    assert any(low <= rowid <= high for low, high in ranges) == (number in numbers)
    assert all(a[1] + 1 < b[0] for a, b in pairwise(ranges))  # merged


async def steps(store: Stores, visibility: FactVisibility) -> int:
    """SQLite VM instructions one keyword search of ``visibility`` runs on the reader."""
    counted = [0]

    def count() -> int:
        counted[0] += 1
        return 0

    reader = store.ranking._handle.reader  # type: ignore[attr-defined]
    await reader.run(lambda c: c.set_progress_handler(count, 1))
    hits = await store.ranking.keyword_ranking("kayak", visibility, 10)
    await reader.run(lambda c: c.set_progress_handler(None, 1))
    assert hits
    return counted[0]


async def test_a_search_reads_only_the_visible_partitions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keyword, "PRUNE_FROM_FACTS", 10**9)  # "kayak" stays in every query
    path = tmp_path / "memory.db"
    mine = [fact(1, "kayak in the garage"), fact(2, "my kayak is red", "u1")]
    crowd = [fact(10 + n, f"kayak number {n}", "crowd") for n in range(1000)]
    async with await open_sqlite(path) as store:
        await store.facts.add_facts(mine, [[1.0, 0.0]] * 2)
        alone = await steps(store, ALICE)
        await store.facts.add_facts(crowd, [[1.0, 0.0]] * len(crowd))
        beside_the_crowd = await steps(store, ALICE)
        crowd_viewer = FactVisibility(A, UserId("crowd"), frozenset({Scope.USER}))
        in_the_crowd = await steps(store, crowd_viewer)
        hits = await store.ranking.keyword_ranking("kayak", ALICE, 10)
    assert {h.id for h in hits} == {f.id for f in mine}
    # The crowd's 1,000 matches are neither scored nor filtered out for Alice (version 9 did
    # both: every match cost steps), while a search that sees them steps through each.
    assert beside_the_crowd < 1.2 * alone
    assert in_the_crowd > 10 * beside_the_crowd


def as_version_9(path: Path) -> None:
    """Put the file's keyword index back as versions 5-9 made it: keyed by ``pk``."""
    delete_trigger = next(s for s in CREATE_V1.split(";") if "facts_fts_delete" in s)
    with sqlite3.connect(path) as raw:
        for trigger in ("facts_fts_delete", "facts_fts_update"):
            raw.execute(f"DROP TRIGGER {trigger}")
        raw.execute("DROP TABLE facts_vocab")
        raw.execute("DROP TABLE facts_fts")
        raw.execute("DROP TABLE keyword_partitions")
        raw.execute(
            "CREATE VIRTUAL TABLE facts_fts USING fts5(content, content = 'facts', "
            f"content_rowid = 'pk', tokenize = '{TOKENIZE}')"
        )
        raw.execute("CREATE VIRTUAL TABLE facts_vocab USING fts5vocab(facts_fts, row)")
        raw.execute(delete_trigger + "; END")
        raw.execute(UPDATE_TRIGGER_BY_PK)
        raw.execute(
            "INSERT INTO facts_fts (rowid, content) "
            "SELECT pk, content FROM facts WHERE status = 'active'"
        )
        raw.execute("PRAGMA user_version = 9")


def version_9_ranking(path: Path, word: str) -> list[tuple[str, float]]:
    """What version 9 answered: every owner's matches scored, then filtered."""
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT f.id, -bm25(facts_fts) AS score FROM facts_fts "
            "JOIN facts f ON f.pk = facts_fts.rowid WHERE facts_fts MATCH ? "
            "AND f.agent_id = ? AND (f.scope = 'agent' OR f.owner = ?) "
            "ORDER BY score DESC, f.pk DESC",
            (word, A, U1),
        )
        return [(str(i), float(s)) for i, s in rows]


CORPUS = [
    ("Alice paddles her kayak on the lake every Sunday morning", None),
    ("kayak", "u1"),
    ("The kayak club meets at the old boathouse near the bridge", "u1"),
    ("Bob sold his kayak", "u2"),
    ("A red kayak and a blue canoe share the garage", None),
    *((f"the garage holds tools number {n}", "u2" if n % 2 else None) for n in range(10)),
]


async def test_a_version_9_file_upgrades_without_loss_and_ranks_as_it_did(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    facts = [fact(n, text, user) for n, (text, user) in enumerate(CORPUS)]
    retired = fact(99, "a retired kayak", "u1").evolve(status=FactStatus.RETIRED)
    async with await open_sqlite(path) as store:
        await store.facts.add_facts([*facts, retired], [[1.0, 0.0]] * (len(facts) + 1))
    as_version_9(path)
    before = {word: version_9_ranking(path, word) for word in ("kayak", "garage")}
    assert len(before["kayak"]) == 4  # agent facts and u1's; u2's and the retired one hidden
    async with await open_sqlite(path) as store:
        assert await store.facts.get_facts([f.id for f in [*facts, retired]]) == [*facts, retired]
        for word, ranked in before.items():
            hits = await store.ranking.keyword_ranking(word, ALICE, 50)
            assert [(h.id, h.score) for h in hits] == ranked  # ids, order and scores
        moved = facts[3].evolve(user_id=U1, content="Bob lent Alice his kayak")
        await store.facts.update_fact(moved, None, 1)
        await store.fact_records.delete_facts([facts[0].id])
        hits = await store.ranking.keyword_ranking("kayak", ALICE, 50)
        assert {h.id for h in hits} == {facts[1].id, facts[2].id, facts[4].id, moved.id}
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert not index_damaged(raw)
        numbers = raw.execute("SELECT count(*) FROM keyword_partitions").fetchone()
        assert numbers == (3,)  # agent, u1, u2
