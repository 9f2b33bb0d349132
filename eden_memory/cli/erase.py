"""``eden-memory erase-user``: remove one user's memory with one agent, as the API's
``memory.admin.erase_user`` and the console do, and report what went.

Erasure cannot be undone, so it asks first: on a terminal it asks for a yes, elsewhere it
runs only with ``--yes``.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Annotated

import typer

from eden_memory.application.administration.erasure import Erasure
from eden_memory.application.service import MemoryService
from eden_memory.cli.agents import explain_empty
from eden_memory.cli.output import complain, dumped, say
from eden_memory.cli.runtime import State, store_label


def erase_user(
    ctx: typer.Context,
    agent: Annotated[str, typer.Option("--agent", "-a", help="Agent id.")],
    user: Annotated[str, typer.Option("--user", "-u", help="The user to erase.")],
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Erase without asking (scripts).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The whole report as JSON.")] = False,
) -> None:
    """Erase a user's memory with an agent for good: their own memory, their sessions, and
    what of the agent's shared memory came from them alone; prints what was erased."""
    state = ctx.ensure_object(State)
    where = store_label(state.store_config())
    if not yes:
        _confirm(f"Erase everything agent {agent!r} keeps of user {user!r} in {where}?")

    async def work(memory: MemoryService) -> None:
        report = await memory.admin.erase_user(agent, user)
        lines = summary(report)
        if as_json:
            dumped(dataclasses.asdict(report))
        for line in [] if as_json else lines:
            say(line)
        if not lines:
            complain(f"(nothing erased: user {user!r} held nothing with agent {agent!r})")
            await explain_empty(memory, state, agent)

    state.run(work)


def _confirm(question: str) -> None:
    if not sys.stdin.isatty():
        raise typer.BadParameter("erasure cannot be undone: add --yes to erase")
    typer.confirm(question, abort=True)


def summary(report: Erasure) -> list[str]:
    """One line per kind of record the erasure touched (none: it found nothing)."""
    counts = {
        "records of the user's own memory removed": report.user_scope_records,
        "sessions removed": len(report.sessions),
        "records of those sessions removed": report.session_scope_records,
        "messages of those sessions removed": report.session_messages,
        "messages in group sessions removed": report.messages_in_group_sessions,
        "group sessions the user was taken out of": len(report.group_sessions),
        "shared facts removed (theirs alone)": len(report.facts_removed),
        "shared facts reverted to an earlier text": len(report.facts_reverted),
        "shared facts their words had retired, restored": len(report.facts_restored),
        "shared facts with their words taken out": len(report.facts_cleaned),
        "shared notes removed": len(report.notes_removed),
        "shared notes with their words taken out": len(report.notes_cleaned),
        "blobs rebuilt": len(report.blobs_rebuilt),
        "blobs cleaned": len(report.blobs_cleaned),
    }
    lines = [f"{n} {what}" for what, n in counts.items() if n]
    for key, why in report.blobs_flagged.items():
        lines.append(f"blob {key} emptied until a model rebuilds it: {why}")
    return lines
