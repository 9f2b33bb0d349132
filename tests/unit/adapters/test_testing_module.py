"""``eden_memory.testing`` hands hosts every fake, each usable where its port is expected."""

from __future__ import annotations

from datetime import UTC, datetime

from eden_memory import testing
from eden_memory.ports import LLM, Clock, Embedder, MemoryStore


def test_the_fakes_fill_every_port() -> None:
    store: MemoryStore = testing.InMemoryStore()
    embedders: list[Embedder] = [testing.FakeEmbedder(), testing.KeywordEmbedder()]
    llm: LLM = testing.ScriptedLLM([])
    clocks: list[Clock] = [
        testing.FakeClock(datetime(2026, 1, 1, tzinfo=UTC)),
        testing.SystemClock(),
    ]
    assert all([store, *embedders, llm, *clocks])


def test_everything_exported_exists() -> None:
    assert all(hasattr(testing, name) for name in testing.__all__)
