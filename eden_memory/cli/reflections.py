"""``eden-memory reflections``: the buffered notes of a scope.

A reflection id may be given by its first characters (4 or more) when they begin exactly one
of the agent's reflections, as fact ids may."""

from __future__ import annotations

from typing import Annotated

import typer

from eden_memory.application.service import MemoryService
from eden_memory.cli.agents import explain_empty
from eden_memory.cli.output import rows, say
from eden_memory.cli.records import Agent, Json, RecordKind, add_edit, add_history
from eden_memory.cli.runtime import State
from eden_memory.domain.scopes import ScopeKey

app = typer.Typer(help="Read and manage reflections (buffered notes).", no_args_is_help=True)
REFLECTION = RecordKind(
    "reflection",
    seen_in="list",
    edited="",
    resolve=lambda admin, agent, given: admin.resolve_reflection_id(agent, given),
    history=lambda admin, agent, whole: admin.reflection_history(agent, whole),
    edit=lambda admin, agent, whole, text, reason, version: admin.edit_reflection(
        agent, whole, text, reason, expected_version=version
    ),
)


def scope_key(agent: str, user: str | None, session: str | None) -> ScopeKey | None:
    if user and session:
        raise typer.BadParameter("give --user or --session, not both")
    if user:
        return ScopeKey.user(agent, user)
    if session:
        return ScopeKey.session(agent, session)
    return None


@app.command("list")
def list_reflections(
    ctx: typer.Context,
    agent: Agent,
    user: Annotated[str | None, typer.Option(help="A user's notes.")] = None,
    session: Annotated[str | None, typer.Option(help="A session's notes.")] = None,
    absorbed: Annotated[bool, typer.Option("--all", help="Absorbed ones too.")] = False,
    as_json: Json = False,
) -> None:
    """List reflections, oldest first (all scopes of the agent unless narrowed)."""
    key = scope_key(agent, user, session)
    state = ctx.ensure_object(State)

    async def work(memory: MemoryService) -> None:
        found = await memory.admin.list_reflections(agent, key, include_absorbed=absorbed)
        if not found:
            await explain_empty(memory, state, agent)
        data = [
            [
                r.id,
                r.scope.value,
                r.user_id or r.session_id or "",
                "yes" if r.absorbed else "",
                str(r.version),
                r.content,
            ]
            for r in found
        ]
        headers = ("id", "scope", "owner", "absorbed", "v", "content")
        rows(headers, data, as_json, stack=("id", "content"))

    state.run(work)


add_edit(
    app,
    REFLECTION,
    """Edit a buffered (not yet absorbed) reflection; the old text stays in its history.

    Refused, with the newer text shown, if it is no longer at --expected-version.""",
)
add_history(app, REFLECTION)


@app.command()
def delete(ctx: typer.Context, agent: Agent, reflection_id: str = REFLECTION.id_argument()) -> None:
    """Delete a buffered (not yet absorbed) reflection."""

    async def work(memory: MemoryService) -> None:
        whole = await memory.admin.resolve_reflection_id(agent, reflection_id)
        await memory.admin.delete_reflection(agent, whole)
        say(f"deleted {whole}")

    ctx.ensure_object(State).run(work)
