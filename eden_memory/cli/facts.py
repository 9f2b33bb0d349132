"""``eden-memory facts``: list, show, edit, delete, history.

Every command that takes a fact id also takes its first characters (4 or more, as ``git``
takes a short hash), when they begin exactly one of the agent's facts."""

from __future__ import annotations

from typing import Annotated

import typer

from eden_memory.application.service import MemoryService
from eden_memory.cli.agents import explain_empty
from eden_memory.cli.output import rows, say
from eden_memory.cli.records import Agent, Json, RecordKind, add_edit, add_history
from eden_memory.cli.runtime import State
from eden_memory.domain.ages import age_label
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.models import Fact, FactStatus
from eden_memory.domain.scopes import Scope

app = typer.Typer(help="Read and manage facts.", no_args_is_help=True)
STATUSES = ("active", "retired", "all")
FACT = RecordKind(
    "fact",
    seen_in="list or show",
    edited="fact ",
    resolve=lambda admin, agent, given: admin.resolve_fact_id(agent, given),
    history=lambda admin, agent, whole: admin.fact_history(agent, whole),
    edit=lambda admin, agent, whole, text, reason, version: admin.edit_fact(
        agent, whole, text, reason, expected_version=version
    ),
)


def _rows(facts: list[Fact], memory: MemoryService) -> list[list[str]]:
    now = memory.clock.now()
    return [
        [
            f.id,
            f.scope.value,
            f.user_id or "",
            f.status_label(now),
            str(f.version),
            age_label(f.formed_at, now),
            f.content,
        ]
        for f in facts
    ]


@app.command("list")
def list_facts(
    ctx: typer.Context,
    agent: Agent,
    user: Annotated[str | None, typer.Option(help="Only this user's facts.")] = None,
    scope: Annotated[Scope | None, typer.Option(help="user or agent.")] = None,
    status: Annotated[str, typer.Option(help="active, retired or all.")] = "active",
    limit: int = 50,
    as_json: Json = False,
) -> None:
    """List facts, newest first."""
    if status not in STATUSES:
        raise InvalidInputError(f"--status must be active, retired or all, not {status!r}")
    wanted = None if status == "all" else FactStatus(status)
    state = ctx.ensure_object(State)

    async def work(memory: MemoryService) -> None:
        facts = await memory.admin.list_facts(
            agent, user_id=user, scope=scope, status=wanted, limit=limit
        )
        if not facts:
            await explain_empty(memory, state, agent)
        if as_json:
            for f in facts:
                say(f.model_dump_json())
            return
        headers = ("id", "scope", "user", "status", "v", "formed", "content")
        rows(headers, _rows(facts, memory), stack=("id", "content"))

    state.run(work)


@app.command()
def show(ctx: typer.Context, agent: Agent, fact_id: str = FACT.id_argument()) -> None:
    """Show one fact with all its fields."""

    async def work(memory: MemoryService) -> None:
        fact = await memory.admin.get_fact(agent, await _resolved(memory, agent, fact_id))
        say(fact.model_dump_json(indent=2))

    ctx.ensure_object(State).run(work)


add_edit(
    app,
    FACT,
    """Change a fact's text (re-embedded; the old text stays in its history).

    Refused, with the newer text shown, if the fact is no longer at --expected-version.""",
)


@app.command()
def delete(
    ctx: typer.Context,
    agent: Agent,
    fact_id: str = FACT.id_argument(),
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask.")] = False,
) -> None:
    """Delete a fact for good (asks first, naming the whole id and the text)."""

    async def work(memory: MemoryService) -> None:
        fact = await memory.admin.get_fact(agent, await _resolved(memory, agent, fact_id))
        if not yes:
            typer.confirm(f"Delete fact {fact.id} ({fact.content!r}) for good?", abort=True)
        await memory.admin.delete_fact(agent, fact.id)
        say(f"deleted {fact.id}")

    ctx.ensure_object(State).run(work)


add_history(app, FACT)


async def _resolved(memory: MemoryService, agent: str, given: str) -> str:
    """The whole id of the fact ``given`` names (``Admin.resolve_fact_id``)."""
    return await memory.admin.resolve_fact_id(agent, given)
