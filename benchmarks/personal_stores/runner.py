"""Each store built and asked through the public API, as a host would.

A store's facts go in by direct ingestion (``memory.admin.add_facts``), a day at a time in
the order they were said, the clock set to that day, so the newer fact of a changed pair is
the later one both when it was said and when it was stored; no fact has a key. Every
question is then asked as its user, of the store's agent, once with each setting of
``SETTINGS``; what came back is kept as an ``Outcome`` (``scores`` reads them).
"""

from __future__ import annotations

import itertools
import time as timer
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path

from benchmarks.personal_stores.data import PersonalStore, Question, StoredFact
from eden_memory import EdenMemoryConfig, MemoryService, MemorySettings, open_memory
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.ingestion.facts import FactInput
from eden_memory.domain.settings import SearchSettings
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import Stores
from eden_memory.ports.telemetry import Telemetry
from eden_memory.testing import FakeClock, memory_stores

# The questions are asked after every fact was said.
ASKED_AT = datetime(2026, 6, 1, 12, tzinfo=UTC)
DEFAULTS = "defaults"
NO_ABSTENTION = "abstention off"
SETTINGS = {
    DEFAULTS: MemorySettings(),
    NO_ABSTENTION: MemorySettings(search=SearchSettings(abstain_below=0.0)),
}
# ``--judge``: the defaults with the judge on, the LLM and its models from the environment.
JUDGE = "judge (llm)"
SESSION = "benchmark"


@dataclass(frozen=True)
class Outcome:
    """One question asked with one setting: the ids of the facts returned, best first."""

    store: str
    split: str
    tiny: bool
    setting: str
    question: Question
    ranked: tuple[str, ...]
    marked: frozenset[str]  # results marked as outdated by a newer one
    abstained: bool  # hits were found, and none was relevant enough to return
    best_relevance: float | None  # the best hit's, whether returned or not
    seconds: float = 0.0  # the search's wall time


async def run_store(
    store: PersonalStore,
    embedder: Embedder,
    folder: Path | None,
    settings: Mapping[str, MemorySettings] = SETTINGS,
    telemetry: Telemetry | None = None,
) -> list[Outcome]:
    """Builds ``store`` (an embedded store in ``folder``, else in memory) and asks it all,
    under each of ``settings`` (``telemetry``: told of every search's steps)."""
    clock = FakeClock(ASKED_AT)
    outcomes: list[Outcome] = []
    async with _stores(store, folder) as stores:
        async with _memory(stores, embedder, clock, SETTINGS[DEFAULTS]) as memory:
            await stock(memory, clock, store)
        clock.set(ASKED_AT)
        for name, chosen in settings.items():
            async with _memory(stores, embedder, clock, chosen, telemetry) as memory:
                for question in store.questions:
                    outcomes.append(await ask(memory, store, question, name))
    return outcomes


@asynccontextmanager
async def _stores(store: PersonalStore, folder: Path | None) -> AsyncIterator[Stores]:
    if folder is None:
        yield memory_stores()
        return
    stores = await open_sqlite(folder / f"{store.store}.db")
    try:
        yield stores
    finally:
        await stores.close()


def _memory(
    stores: Stores,
    embedder: Embedder,
    clock: FakeClock,
    settings: MemorySettings,
    telemetry: Telemetry | None = None,
) -> AbstractAsyncContextManager[MemoryService]:
    """A memory over ``stores`` with ``settings`` (the stores stay open after it); its LLM,
    used by the judge only, is the one the environment configures."""
    config = EdenMemoryConfig(store="memory", memory=settings)
    return open_memory(config, store=stores, embedder=embedder, clock=clock, telemetry=telemetry)


async def stock(memory: MemoryService, clock: FakeClock, store: PersonalStore) -> None:
    """Ingests the store's facts day by day, the clock on each day, without keys."""
    by_day = itertools.groupby(sorted(store.facts, key=lambda f: f.said), key=lambda f: f.said)
    for day, facts in by_day:
        clock.set(datetime.combine(day, time(9), tzinfo=UTC))
        items = [_item(store, fact, day) for fact in facts]
        report = await memory.admin.add_facts(items)
        if len(report.added) != len(items):
            raise RuntimeError(f"{store.store}: not every fact of {day} was stored: {report}")


def _item(store: PersonalStore, fact: StoredFact, day: date) -> FactInput:
    return FactInput(
        id=fact.id,
        content=fact.content,
        scope=fact.scope,
        agent_id=store.agent_id,
        user_id=fact.user,
        formed_at=datetime.combine(day, time(9), tzinfo=UTC),
    )


async def ask(
    memory: MemoryService, store: PersonalStore, question: Question, setting: str
) -> Outcome:
    """One search, as the question's user, of the store's agent."""
    conversation = memory.conversation(store.agent_id, SESSION, [question.user])
    started = timer.perf_counter()
    found = await memory.search_facts(conversation, [question.text], debug=True)
    seconds = timer.perf_counter() - started
    debug = found.debug
    return Outcome(
        store.store,
        store.split,
        store.tiny,
        setting,
        question,
        tuple(str(r.fact.id) for r in found.results),
        frozenset(str(r.fact.id) for r in found.results if r.newer is not None),
        bool(debug and debug.abstained),
        debug.best_relevance if debug else None,
        seconds,
    )
