"""``eden_memory.testing`` hands hosts every fake, each usable where its port is expected."""

from __future__ import annotations

from datetime import UTC, datetime

from eden_memory import testing
from eden_memory.ports import (
    LLM,
    BufferStore,
    Clock,
    Embedder,
    FactRanking,
    FactStore,
    RevisionStore,
    SessionStore,
)


def test_the_fakes_fill_every_port() -> None:
    stores = testing.memory_stores()
    facts: FactStore = stores.facts
    ranking: FactRanking = stores.ranking
    sessions: SessionStore = stores.sessions
    buffers: BufferStore = stores.buffers
    revisions: RevisionStore = stores.revisions
    embedders: list[Embedder] = [testing.FakeEmbedder(), testing.KeywordEmbedder()]
    llm: LLM = testing.ScriptedLLM([])
    clocks: list[Clock] = [
        testing.FakeClock(datetime(2026, 1, 1, tzinfo=UTC)),
        testing.SystemClock(),
    ]
    assert all([facts, ranking, sessions, buffers, revisions, *embedders, llm, *clocks])


def test_everything_exported_exists() -> None:
    assert all(hasattr(testing, name) for name in testing.__all__)
