"""``eden-memory reflections``: the buffered notes of a scope.

A reflection id may be given by its first characters (4 or more) when they begin exactly one
of the agent's reflections, as fact ids may."""

from __future__ import annotations

from typing import Annotated

import typer

from eden_memory.application.service import MemoryService
from eden_memory.cli.agents import explain_empty
from eden_memory.cli.output import rows, say
from eden_memory.cli.runtime import State
from eden_memory.domain.scopes import ScopeKey

app = typer.Typer(help="Read and manage reflections (buffered notes).", no_args_is_help=True)
Agent = Annotated[str, typer.Option("--agent", "-a", help="Agent id.")]
Json = Annotated[bool, typer.Option("--json", help="One JSON object per line.")]
ReflectionIdArg = Annotated[
    str,
    typer.Argument(help="Reflection id, or its first characters (4 or more) if no other has them."),
]
ExpectedVersion = Annotated[
    int,
    typer.Option(
        "--expected-version",
        help="The version your edit is based on (as list gave it); a save on any other "
        "version is refused.",
    ),
]


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


@app.command()
def edit(
    ctx: typer.Context,
    agent: Agent,
    reflection_id: ReflectionIdArg,
    text: str,
    expected_version: ExpectedVersion,
) -> None:
    """Edit a buffered (not yet absorbed) reflection; the old text stays in its history.

    Refused, with the newer text shown, if it is no longer at --expected-version."""

    async def work(memory: MemoryService) -> None:
        r = await memory.admin.edit_reflection(
            agent,
            await memory.admin.resolve_reflection_id(agent, reflection_id),
            text,
            "cli edit",
            expected_version=expected_version,
        )
        say(f"{r.id} is now version {r.version}: {r.content}")

    ctx.ensure_object(State).run(work)


@app.command()
def history(
    ctx: typer.Context, agent: Agent, reflection_id: ReflectionIdArg, as_json: Json = False
) -> None:
    """Every text the reflection has had, oldest first."""

    async def work(memory: MemoryService) -> None:
        whole = await memory.admin.resolve_reflection_id(agent, reflection_id)
        revisions = await memory.admin.reflection_history(agent, whole)
        last = len(revisions) - 1
        data = [
            [
                str(r.version),
                "current" if i == last else r.replaced_at.isoformat(timespec="seconds"),
                r.content,
                r.reason,
            ]
            for i, r in enumerate(revisions)
        ]
        rows(("version", "until", "content", "reason"), data, as_json)

    ctx.ensure_object(State).run(work)


@app.command()
def delete(ctx: typer.Context, agent: Agent, reflection_id: ReflectionIdArg) -> None:
    """Delete a buffered (not yet absorbed) reflection."""

    async def work(memory: MemoryService) -> None:
        whole = await memory.admin.resolve_reflection_id(agent, reflection_id)
        await memory.admin.delete_reflection(agent, whole)
        say(f"deleted {whole}")

    ctx.ensure_object(State).run(work)
