"""One conversation of the QA benchmark: formed through the service, then questioned.

Its sessions go through the normal path, as ``benchmarks.formation_quality`` plays them
(``start_session``, ``record_messages``, ``end_session``, which forms and consolidates, on a
clock at the session's time); then each question gets what a host would give its model (the
memory context and the ``search_facts`` results for the question, on a new session of the
same user and agent), an answer, and a verdict.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from dependency_injector import providers

from benchmarks.formation_quality import (
    AGENT,
    CountingEmbedder,
    FormedFact,
    SessionRun,
    form_session,
    formed_facts,
)
from benchmarks.locomo_data import Sample
from benchmarks.locomo_qa_data import QAItem
from benchmarks.locomo_qa_models import QAModel, ask
from benchmarks.locomo_qa_prompts import (
    ANSWER_SYSTEM,
    JUDGE_SYSTEM,
    Answer,
    Verdict,
    answer_prompt,
    judge_prompt,
)
from benchmarks.locomo_qa_report import QARecord
from eden_memory.adapters.clocks import FakeClock
from eden_memory.adapters.tools.rendering import render_results
from eden_memory.application.conversation import Conversation
from eden_memory.application.metering import UsageMeter
from eden_memory.application.service import MemoryService
from eden_memory.config import EdenMemoryConfig
from eden_memory.container import Container, running
from eden_memory.container.overrides import override_ports
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.llm import LLM


@dataclass(frozen=True)
class Setup:
    """What every conversation of a run shares."""

    config: EdenMemoryConfig
    embedder: Embedder
    llm: LLM | None  # None: the LLM the settings configure forms memory
    meter: UsageMeter  # the run's one meter: formation, answering and judging
    answerer: QAModel
    judge: QAModel
    parallel: int


class Progress(Protocol):
    """Told of each step as it ends, so a long run shows and keeps what it measured."""

    def session(self, run: SessionRun) -> None: ...

    def formed(self, facts: list[FormedFact]) -> None: ...

    def record(self, record: QARecord) -> None: ...


async def run_conversation(
    setup: Setup,
    sample: Sample,
    sessions: Sequence[str],
    items: Sequence[QAItem],
    progress: Progress,
) -> None:
    """Forms ``sessions`` of ``sample`` in a memory of its own, then asks ``items``."""
    counting = CountingEmbedder(setup.embedder)
    clock = FakeClock(sample.turns[0].said_at)
    container = Container(config=setup.config)
    override_ports(container, llm=setup.llm, embedder=counting, clock=clock)
    container.meter.override(providers.Object(setup.meter))
    async with running(container) as memory:
        for session in sessions:
            progress.session(await form_session(memory, clock, counting, sample, session))
        progress.formed(await formed_facts(memory, sample))
        clock.advance(hours=1)  # the questions come an hour after the last session
        conversation = memory.conversation(
            AGENT, f"{sample.sample_id}.questions", [sample.sample_id]
        )
        limit = asyncio.Semaphore(setup.parallel)

        async def one(item: QAItem) -> QARecord:
            async with limit:
                record = await question(setup, memory, conversation, clock, item)
            progress.record(record)
            return record

        await asyncio.gather(*(one(i) for i in items))


async def question(
    setup: Setup, memory: MemoryService, conversation: Conversation, clock: FakeClock, item: QAItem
) -> QARecord:
    """Context and search results, an answer from them, and the judge's verdict."""
    q = item.question
    record = QARecord(q.sample, q.category, q.text, item.gold)
    started = time.perf_counter()
    context = await memory.get_context(conversation)
    found = await memory.search_facts(conversation, [q.text])
    results = render_results([q.text], found, clock.now())
    record.retrieval_seconds = time.perf_counter() - started
    record.hits, record.context_chars = len(found.results), len(context.xml)
    prompt = answer_prompt(q.text, context.xml, results, clock.now())
    record.prompt_chars = len(ANSWER_SYSTEM) + len(prompt)
    answered = await ask(setup.answerer, ANSWER_SYSTEM, prompt, Answer)
    record.answer_seconds = answered.seconds
    if answered.value is None:
        record.error = f"answer: {answered.error}"
        return record
    record.answer = answered.value.answer
    judged = await ask(
        setup.judge, JUDGE_SYSTEM, judge_prompt(q.text, item.gold, record.answer), Verdict
    )
    record.judge_seconds = judged.seconds
    if judged.value is None:
        record.error = f"judge: {judged.error}"
    else:
        record.label = judged.value.label
    return record
