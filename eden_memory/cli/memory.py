"""The top-level commands: demo, stats, consolidation, cold sessions, export, import and
re-embedding; and the registry of every command (``context``, ``search`` and ``users`` are in
``reading``, ``agents`` in ``agents``, ``erase-user`` in ``erase``)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Annotated

import typer

from eden_memory.application.service import MemoryService
from eden_memory.cli import migrate
from eden_memory.cli.agents import agents, explain_empty
from eden_memory.cli.calibrate import calibrate_command
from eden_memory.cli.console import console_command
from eden_memory.cli.demo import demo
from eden_memory.cli.erase import erase_user
from eden_memory.cli.indexes import setup_indexes_command
from eden_memory.cli.ingest import add_facts_command
from eden_memory.cli.local_llm import local_llm_command
from eden_memory.cli.mcp import mcp_command
from eden_memory.cli.output import dumped, rows, say
from eden_memory.cli.progress import Progress
from eden_memory.cli.reading import context, search, users
from eden_memory.cli.runtime import State
from eden_memory.domain.errors import InvalidInputError

Json = Annotated[bool, typer.Option("--json", help="JSON (one object per line for tables).")]
Agent = Annotated[str, typer.Option("--agent", "-a", help="Agent id.")]
OptUser = Annotated[str | None, typer.Option("--user", "-u", help="User id.")]
OptSession = Annotated[str | None, typer.Option("--session", "-s", help="Session id.")]


def stats(
    ctx: typer.Context,
    agent: Agent,
    user: OptUser = None,
    session: OptSession = None,
    as_json: Json = False,
) -> None:
    """Word counts, buffers, versions and fact counts per scope."""
    state = ctx.ensure_object(State)

    async def work(memory: MemoryService) -> None:
        found = await memory.admin.stats(agent, user, session)
        if not any(s.consolidated_words or s.buffered_reflections or s.active_facts for s in found):
            await explain_empty(memory, state, agent)
        headers = (
            "scope",
            "blob words",
            "limit",
            "version",
            "buffered",
            "facts",
            "last consolidated",
        )
        data = [
            [
                s.key.as_text(),
                str(s.consolidated_words),
                str(s.word_limit),
                str(s.consolidated_version),
                str(s.buffered_reflections),
                "" if s.active_facts is None else str(s.active_facts),
                s.last_consolidated_at.isoformat(timespec="seconds")
                if s.last_consolidated_at
                else "",
            ]
            for s in found
        ]
        records = [dataclasses.asdict(s) | {"key": s.key.as_text()} for s in found]
        rows(headers, data, as_json, records)

    state.run(work)


def consolidation_status(
    ctx: typer.Context,
    agent: Agent,
    user: OptUser = None,
    session: OptSession = None,
    as_json: Json = False,
) -> None:
    """Buffer size against threshold per scope."""

    async def work(memory: MemoryService) -> None:
        found = await memory.admin.consolidation_status(agent, user, session)
        data = [
            [s.key.as_text(), str(s.buffered), str(s.threshold), "yes" if s.due else "no"]
            for s in found
        ]
        records = [dataclasses.asdict(s) | {"key": s.key.as_text()} for s in found]
        rows(("scope", "buffered", "threshold", "due"), data, as_json, records)

    ctx.ensure_object(State).run(work)


def process_cold(ctx: typer.Context, limit: int = 100) -> None:
    """Form every session quiet for the cold interval (for a scheduler; safe in parallel)."""

    async def work(memory: MemoryService) -> None:
        reports = await memory.process_cold_sessions(limit=limit)
        say(f"formed {len(reports)} cold session(s)")

    ctx.ensure_object(State).run(work)


def export(
    ctx: typer.Context,
    agent: Agent,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File (default: stdout).")
    ] = None,
) -> None:
    """Export one agent's memory as JSON Lines."""
    if output is not None:
        writable_file(output)
    state = ctx.ensure_object(State)

    async def work(memory: MemoryService) -> None:
        progress = Progress("export")
        lines = []
        async for line in memory.admin.export(agent):
            lines.append(line)
            progress.advance(1)
        progress.finish()
        if len(lines) < 2:  # the header alone
            await explain_empty(memory, state, agent)
        text = "\n".join(lines) + "\n"
        if output is None:
            sys.stdout.write(text)
        else:
            output.write_text(text, encoding="utf-8")
            say(f"wrote {len(lines) - 1} records to {output}")

    state.run(work)


def import_(
    ctx: typer.Context,
    source: Annotated[Path, typer.Argument(exists=True, dir_okay=False)],
    agent: Annotated[
        str | None,
        typer.Option("--agent", "-a", help="Import into this agent (default: the export's)."),
    ] = None,
    mapping: Annotated[
        list[str] | None,
        typer.Option(
            "--map",
            metavar="EXPORTED=TARGET",
            help="Write the records of agent EXPORTED into TARGET (repeat for several).",
        ),
    ] = None,
) -> None:
    """Import an export file (validated in full before anything is written).

    Only the export's own agent is written, unless --agent or --map names another."""
    if agent is not None and mapping:
        raise typer.BadParameter("give --agent or --map, not both")
    target = _agent_map(mapping) if mapping else agent
    lines = utf8_lines(source.read_bytes(), source)

    async def work(memory: MemoryService) -> None:
        progress = Progress("import", total=max(len(lines) - 1, 0))
        report = await memory.admin.import_lines(
            lines, on_progress=progress.advance, agent_id=target
        )
        progress.finish()
        dumped(dataclasses.asdict(report))

    ctx.ensure_object(State).run(work, creates=True)


def _agent_map(pairs: list[str]) -> dict[str, str]:
    """``--map nova=copy`` pairs; an id with "=" in it is mapped through the API."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        if pair.count("=") != 1:
            raise typer.BadParameter(f"--map takes EXPORTED=TARGET, got {pair!r}")
        exported, target = pair.split("=")
        if exported in mapping:
            raise typer.BadParameter(f"--map names agent {exported!r} twice")
        mapping[exported] = target
    return mapping


def reembed(
    ctx: typer.Context,
    agent: Annotated[
        list[str], typer.Option("--agent", "-a", help="Agent id (repeat for several).")
    ],
    batch: int = 256,
) -> None:
    """Embed an agent's facts again with the configured embedder (after changing models)."""

    async def work(memory: MemoryService) -> None:
        progress = Progress("re-embedding")
        moved = await memory.admin.reembed(agent, batch, progress.advance)
        progress.finish()
        say(f"re-embedded {moved} facts with {memory.admin.embedder.space.model}")

    ctx.ensure_object(State).run(work)


def writable_file(path: Path) -> None:
    """Refuse, before any work, a path that can only fail when written: a folder, or a file
    in a folder that does not exist."""
    if path.is_dir():
        raise InvalidInputError(f"{path} is a folder: give the path of a file")
    if not path.parent.is_dir():
        raise InvalidInputError(f"there is no folder {path.parent} to write {path.name} in")


def utf8_lines(data: bytes, source: Path | str) -> list[str]:
    """The file's lines, or one error naming the first line that is not UTF-8."""
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InvalidInputError(
            f"{source}: line {line} is not UTF-8 (byte 0x{data[error.start]:02x}); "
            "nothing was imported"
        ) from None


def register(app: typer.Typer) -> None:
    app.command()(demo)
    app.command()(context)
    app.command()(search)
    app.command()(users)
    app.command()(agents)
    app.command("erase-user")(erase_user)
    app.command()(stats)
    app.command("consolidation-status")(consolidation_status)
    app.command("process-cold")(process_cold)
    app.command()(export)
    app.command("import")(import_)
    app.command()(reembed)
    app.command("mcp")(mcp_command)
    app.command("console")(console_command)
    app.command("local-llm")(local_llm_command)
    app.command("migrate-v1")(migrate.migrate_v1_command)
    app.command("rollback-v1")(migrate.rollback_v1_command)
    app.command("setup-indexes")(setup_indexes_command)
    app.command("add-facts")(add_facts_command)
    app.command("calibrate")(calibrate_command)
