"""The in-memory vector index: exact ranking, and in step with writes from other connections."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite, revisions
from eden_memory.adapters.stores.sqlite.vectors.partition import Partition
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, FactId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import FactVisibility, Scope
from eden_memory.ports.stores import Stores

T0 = datetime(2026, 2, 1, tzinfo=UTC)
A, U = AgentId("agent"), UserId("user")
VIEWER = FactVisibility(A, U, frozenset({Scope.AGENT, Scope.USER}))
SPACE = EmbeddingSpace("m", 3)
X, Y, Z = [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]


def fact(name: str, user: UserId | None = U, space: EmbeddingSpace = SPACE) -> Fact:
    return Fact(
        id=FactId(name),
        content=f"fact {name}",
        scope=Scope.USER if user else Scope.AGENT,
        agent_id=A,
        user_id=user,
        formed_at=T0,
        created_at=T0,
        updated_at=T0,
        embedding_model=space.model,
        embedding_dim=space.dimension,
    )


@dataclass
class Pair:
    """Two stores on one file: two connections, two in-memory indexes."""

    reader: Stores
    writer: Stores
    path: Path

    async def ranked(self, vector: list[float], space: EmbeddingSpace = SPACE) -> list[str]:
        return [
            h.id
            for h in await self.reader.ranking.semantic_ranking(vector, VIEWER, 10, space=space)
        ]

    async def scores(self, vector: list[float]) -> dict[str, float]:
        hits = await self.reader.ranking.semantic_ranking(vector, VIEWER, 10, space=SPACE)
        return {h.id: round(h.score, 5) for h in hits}


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[Pair]:
    async with (
        await open_sqlite(tmp_path / "memory.db") as reader,
        await open_sqlite(tmp_path / "memory.db") as writer,
    ):
        yield Pair(reader, writer, tmp_path / "memory.db")


async def test_facts_added_elsewhere_are_found(pair: Pair) -> None:
    await pair.writer.facts.add_facts([fact("near"), fact("agent-wide", None)], [X, [0.6, 0.8, 0]])
    assert await pair.ranked(X) == ["near", "agent-wide"]  # loads the partitions
    await pair.writer.facts.add_facts([fact("nearer", None)], [[0.9, 0.1, 0.0]])
    assert await pair.ranked(X) == ["near", "nearer", "agent-wide"]


async def test_updates_retirements_and_deletions_elsewhere_are_seen(pair: Pair) -> None:
    a, b, c = fact("a"), fact("b"), fact("c")
    await pair.writer.facts.add_facts([a, b, c], [X, Y, Z])
    assert await pair.scores(Y) == {"a": 0.0, "b": 1.0, "c": 0.0}
    await pair.writer.facts.update_fact(b.evolve(content="fact b moved"), X, 1)
    assert await pair.scores(X) == {"a": 1.0, "b": 1.0, "c": 0.0}
    await pair.writer.facts.update_fact(a.retired(T0, "wrong", None), None, 1)
    assert await pair.scores(X) == {"b": 1.0, "c": 0.0}
    await pair.writer.fact_records.delete_facts([c.id])
    assert await pair.scores(X) == {"b": 1.0}


async def test_a_reembedding_elsewhere_switches_the_space(pair: Pair) -> None:
    await pair.writer.facts.add_facts([fact("a"), fact("b")], [X, Y])
    assert set(await pair.ranked(X)) == {"a", "b"}
    v2 = EmbeddingSpace("m2", 3)
    await pair.writer.fact_records.reembed_facts(v2, {FactId("a"): Z})
    assert await pair.ranked(Z, v2) == ["a"]
    await pair.writer.facts.add_facts([fact("c", space=v2)], [Y])
    assert await pair.ranked(Z, v2) == ["a", "c"]


async def test_a_scope_deleted_elsewhere_leaves_the_index(pair: Pair) -> None:
    await pair.writer.facts.add_facts([fact("mine"), fact("shared", None)], [X, X])
    assert set(await pair.ranked(X)) == {"mine", "shared"}
    await pair.writer.revisions.delete_scope(fact("mine").key)
    assert await pair.ranked(X) == ["shared"]


ops = st.lists(
    st.tuples(
        st.sampled_from("abcdefghij"),
        st.none() | st.lists(st.floats(-1, 1), min_size=4, max_size=4),
    ),
    max_size=60,
)


@given(ops=ops, query=st.lists(st.floats(-1, 1), min_size=4, max_size=4))
def test_a_partition_ranks_like_a_plain_scan(
    ops: list[tuple[str, list[float] | None]], query: list[float]
) -> None:
    part = Partition(0, [], np.zeros((0, 4), dtype=np.float32))
    model: dict[str, np.ndarray] = {}
    for name, vector in ops:
        if vector is None:
            part.remove(name)
            model.pop(name, None)
        else:
            part.upsert(name, np.asarray(vector, dtype=np.float32))
            model[name] = np.asarray(vector, dtype=np.float32)
    assert sorted(part.ids) == sorted(model)
    q = np.asarray(query, dtype=np.float32)
    for row, name in enumerate(part.ids):
        expected = model[name]
        norm = np.linalg.norm(expected)
        unit = expected / norm if norm > 0 else expected
        assert part.matrix[row] @ q == pytest.approx(float(unit @ q), abs=1e-5)


async def test_an_index_older_than_the_kept_tombstones_reloads(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(revisions, "TOMBSTONES_KEPT", 1)
    await pair.writer.facts.add_facts([fact(name) for name in "abcd"], [X] * 4)
    assert set(await pair.ranked(X)) == set("abcd")
    for name in "abc":
        await pair.writer.fact_records.delete_facts([FactId(name)])
    with sqlite3.connect(pair.path) as raw:
        kept = {row[0] for row in raw.execute("SELECT fact_id FROM fact_tombstones")}
    assert "a" not in kept
    assert await pair.ranked(X) == ["d"]


async def test_vectors_with_nan_or_infinity_are_refused(pair: Pair) -> None:
    with pytest.raises(InvalidInputError):
        await pair.writer.facts.add_facts([fact("a")], [[float("nan"), 0.0, 0.0]])
    with pytest.raises(InvalidInputError):
        await pair.writer.facts.add_facts([fact("a")], [[1e39, 0.0, 0.0]])
    await pair.writer.facts.add_facts([fact("a")], [X])
    with pytest.raises(InvalidInputError):
        await pair.reader.ranking.semantic_ranking([float("inf"), 0.0, 0.0], VIEWER, 3, space=SPACE)


async def test_a_fact_moved_to_another_scope_moves_in_the_index(pair: Pair) -> None:
    mine = fact("mine")
    await pair.writer.facts.add_facts([mine], [X])
    other_user = FactVisibility(A, UserId("someone-else"), VIEWER.scopes)
    assert await pair.ranked(X) == ["mine"]
    assert await pair.reader.ranking.semantic_ranking(X, other_user, 5, space=SPACE) == []
    await pair.writer.facts.update_fact(mine.evolve(scope=Scope.AGENT, user_id=None), None, 1)
    assert await pair.ranked(X) == ["mine"]
    assert [
        h.id for h in await pair.reader.ranking.semantic_ranking(X, other_user, 5, space=SPACE)
    ] == ["mine"]
    assert await pair.reader.fact_reads.count_facts(mine.key) == 0
