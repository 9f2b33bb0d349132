"""Write-path benchmark: what one formation costs, with the offline scripted model.

Plays the demo's four-session story (an events agent, two users, a group session, a
corrected budget, a promotion: eden_memory/demo/script.py) through ``MemoryService`` on the
embedded store, session by session, each formed at session end, and prints per formation:
LLM calls (by purpose), embedding calls, tokens in/out (the scripted model counts
characters / 4, as a provider would bill roughly), and the formation's wall time with the
LLM's own time subtracted (measured around every call). The scripted model answers from
lookup tables in microseconds, so the remaining time is eden-memory's: prompts, parsing,
validation, embedding, store writes, consolidation bookkeeping.

    python -m benchmarks.formation [--repeat 20] [--embedder local|keyword]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.application.formation.reports import FormationReport
from eden_memory.application.service import MemoryService
from eden_memory.demo.script import AGENT_ID, SESSIONS, DemoSession, lookup_model
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.ports.embedder import Embedder, TextRole
from eden_memory.ports.llm import LLMRequest, LLMResult, T

AGENT = AgentMemoryConfig(AGENT_ID)
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


@dataclass
class TimedLLM:
    """Measures the time spent inside the model, to subtract it from formation time."""

    inner: ScriptedLLM
    seconds: float = 0.0

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        start = time.perf_counter()
        try:
            return await self.inner.generate(request, schema)
        finally:
            self.seconds += time.perf_counter() - start


@dataclass
class Formed:
    session: DemoSession
    report: FormationReport
    wall: float
    llm: float


async def play(folder: Path, embedder: Embedder) -> list[Formed]:
    store = await open_sqlite(folder / "formation.db")
    llm = TimedLLM(ScriptedLLM(lookup_model()))
    clock = FakeClock(START)
    memory = MemoryService(store, embedder, llm, clock)
    formed = []
    try:
        for day, session in enumerate(SESSIONS):
            at = START + timedelta(days=day)
            clock.set(at)
            conv = memory.conversation(AGENT, session.session_id, session.users)
            await memory.start_session(conv)
            messages = session.messages(session.session_id, at)
            await memory.record_messages(conv, messages, background=False)
            llm.seconds = 0.0
            start = time.perf_counter()
            report = await memory.end_session(conv)
            wall = time.perf_counter() - start
            if report is not None:
                formed.append(Formed(session, report, wall, llm.seconds))
    finally:
        await memory.aclose()
        await store.close()
    return formed


def embedder_named(name: str) -> Embedder:
    if name == "keyword":
        return KeywordEmbedder()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from eden_memory.adapters.embedders.local import LocalEmbedder

    return LocalEmbedder()


async def main(repeat: int, embedder_name: str) -> None:
    embedder = embedder_named(embedder_name)
    await embedder.embed(["warm up"], TextRole.PASSAGE)
    runs: list[list[Formed]] = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="formation-") as tmp:
            runs.append(await play(Path(tmp), embedder))
    first = runs[0]
    print(f"embedder: {embedder.space.model}; {repeat} runs of {len(SESSIONS)} sessions")
    head = (
        f"{'session':<26}{'msgs':>5}{'facts':>6}{'LLM':>5}{'emb':>5}{'tok in':>8}"
        f"{'tok out':>8}{'wall ms':>9}{'LLM ms':>8}{'w/o LLM':>9}  LLM calls by purpose"
    )
    print(head)
    print("-" * len(head))
    for i, f in enumerate(first):
        u = f.report.usage
        net = [1000 * (run[i].wall - run[i].llm) for run in runs]
        wall = statistics.median(1000 * run[i].wall for run in runs)
        llm = statistics.median(1000 * run[i].llm for run in runs)
        print(
            f"{f.session.title:<26}{f.report.messages:>5}{f.report.facts_extracted:>6}"
            f"{u.llm_calls:>5}{u.embedding_calls:>5}{u.input_tokens:>8}{u.output_tokens:>8}"
            f"{wall:>9.1f}{llm:>8.2f}{statistics.median(net):>9.1f}  "
            + ", ".join(f"{p} {n}" for p, n in sorted(u.llm_calls_by_purpose.items()))
        )
    total = [sum(1000 * (f.wall - f.llm) for f in run) for run in runs]
    print(
        f"\nall {len(first)} formations, wall time without the LLM: median "
        f"{statistics.median(total):.1f} ms, min {min(total):.1f} ms, max {max(total):.1f} ms "
        f"(medians per formation above; token counts are the scripted model's chars/4)"
    )
    print(
        "decisions: "
        + "; ".join(
            f"{f.session.title}: {dict((k, v) for k, v in f.report.decisions.items() if v)}"
            for f in first
        )
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--embedder", choices=("local", "keyword"), default="local")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.repeat, arguments.embedder))
