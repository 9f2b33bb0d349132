"""The embedded store looks up a batch's hashes by index: the work does not grow with the store.

SQLite's progress handler counts the virtual-machine steps of the reader's statements; a
lookup that read the partition would take thousands more steps in the larger store.
"""

from __future__ import annotations

from pathlib import Path

from eden_memory.adapters.stores.sqlite import SqliteFacts, open_sqlite
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, UserId
from eden_memory.domain.scopes import Scope
from eden_memory.domain.text import content_hash
from tests.contract.store.world import U1, A, Builder

ASKED = [content_hash(f"fact {i}") for i in (3, 5)] + [content_hash("not stored")]


async def _steps_of_lookup(path: Path, stored: int) -> tuple[int, set[tuple[Scope, str]]]:
    build = Builder(EmbeddingSpace("test-embedder", 8))
    store = await open_sqlite(path)
    try:
        facts = [build.fact(f"fact {i}", user=U1 if i % 2 else None) for i in range(stored)]
        await store.facts.add_facts(facts, [build.axis(i % 8) for i in range(stored)])
        steps = [0]

        def count() -> int:
            steps[0] += 1
            return 0

        assert isinstance(store.facts, SqliteFacts)
        await store.facts._handle.reader.run(lambda c: c.set_progress_handler(count, 1))
        found = await store.facts.known_hashes(AgentId(A), UserId(U1), ASKED)
        return steps[0], found
    finally:
        await store.close()


async def test_a_batch_lookup_costs_the_same_in_a_store_of_any_size(tmp_path: Path) -> None:
    small, found_small = await _steps_of_lookup(tmp_path / "small.db", 10)
    large, found_large = await _steps_of_lookup(tmp_path / "large.db", 4000)
    expected = {(Scope.USER, ASKED[0]), (Scope.USER, ASKED[1])}
    assert found_small == found_large == expected
    assert large <= small + 20  # a deeper B-tree costs a few steps, a scan thousands
