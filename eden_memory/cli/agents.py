"""Which agents a store holds: ``eden-memory agents``, and the line that explains an empty
answer for an agent id that holds nothing (a typo, or another store).

A command that reads an agent's memory gets nothing back, with no error, for an agent that
holds none; when its answer is empty, it says so and names the agents that do hold memory.
"""

from __future__ import annotations

import shlex
from typing import Annotated

import typer

from eden_memory.application.administration.owners import MAX_PAGE
from eden_memory.application.service import MemoryService
from eden_memory.cli.output import complain, say
from eden_memory.cli.runtime import State, store_label

NAMED = 10  # agents named in a hint; `eden-memory agents` lists them all


def agents(
    ctx: typer.Context,
    after: Annotated[
        str | None, typer.Option(help="Continue after this agent (the last one shown).")
    ] = None,
    limit: Annotated[int, typer.Option(help="Agents per page (1 to 1000).")] = 50,
) -> None:
    """The agents with memory in this store (facts, blobs or notes), one per line, ascending."""
    state = ctx.ensure_object(State)

    async def work(memory: MemoryService) -> None:
        page = await memory.admin.agents_with_memory(after, limit)
        for name in page.names:
            say(name)
        if page.next_after is not None:
            complain(f"(more: eden-memory agents --after {shlex.quote(page.next_after)})")
        elif not page.names and after is None:
            complain(f"(no agent holds memory in {store_label(state.config())})")

    state.run(work)


async def unknown_agent(memory: MemoryService, state: State, agent: str) -> str | None:
    """None when ``agent`` holds memory in this store; else a line that says it holds none
    and names the agents that do."""
    named: list[str] = []
    after: str | None = None
    while True:
        page = await memory.admin.agents_with_memory(after, MAX_PAGE)
        if agent in page.names:
            return None
        named.extend(page.names[: NAMED + 1 - len(named)])
        if page.next_after is None:
            break
        after = page.next_after
    where = store_label(state.config())
    if not named:
        return f"(agent {agent!r} holds no memory in {where}: no agent does yet)"
    shown = ", ".join(named[:NAMED]) + (", ... (eden-memory agents)" if len(named) > NAMED else "")
    return f"(agent {agent!r} holds no memory in {where}; agents here: {shown})"


async def explain_empty(memory: MemoryService, state: State, agent: str) -> bool:
    """Say on stderr that ``agent`` holds nothing here, when it does not; True if said."""
    note = await unknown_agent(memory, state, agent)
    if note is not None:
        complain(note)
    return note is not None
