"""What an agent reads and who holds memory: ``context``, ``search`` and ``users``.

Each says what its numbers mean and what it leaves out: an empty context says what search
still finds, a search table is followed by what each score means, and ``users`` pages through
every user with memory of their own.
"""

from __future__ import annotations

import shlex
from typing import Annotated

import typer

from eden_memory.application.search import SearchMode
from eden_memory.application.search.score_meaning import legend, shown
from eden_memory.application.service import MemoryService
from eden_memory.cli.agents import explain_empty
from eden_memory.cli.output import complain, notes, rows, say
from eden_memory.cli.runtime import State
from eden_memory.cli.search_output import explain
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey

Json = Annotated[bool, typer.Option("--json", help="JSON (one object per line for tables).")]
Agent = Annotated[str, typer.Option("--agent", "-a", help="Agent id.")]
Session = Annotated[str, typer.Option("--session", "-s", help="Session id.")]
Users = Annotated[
    list[str], typer.Option("--user", "-u", help="A user of the session (repeat for a group).")
]


def context(ctx: typer.Context, agent: Agent, session: Session, user: Users = []) -> None:  # noqa: B006
    """Print the memory context XML a prompt of this session would get.

    Standard output is exactly the API's XML (nothing when it is empty); standard error says
    what the recent facts leave out, and what an empty context means."""

    state = ctx.ensure_object(State)

    async def work(memory: MemoryService) -> None:
        conv = memory.conversation(AgentMemoryConfig(agent), session, user)
        found = await memory.get_context(conv)
        if found.xml:
            say(found.xml)
        note = (await memory.admin.fact_window(conv, found.facts)).note()
        if note is not None:
            complain(f"{note}: {_search_hint(agent, user)}")
        elif not found.xml and not await explain_empty(memory, state, agent):
            named = ", ".join(f"{k.scope.value} {_owner(k)!r}" for k in found.keys)
            complain(f"(empty: no memory stored for {named or 'this conversation: memory is off'})")
        if not user:
            complain("(no --user given: no user's own memory is included)")
        elif len(user) > 1:
            complain("(a group session: no user's own memory is included)")

    state.run(work)


def _search_hint(agent: str, users: list[str]) -> str:
    named = "".join(f" -u {shlex.quote(u)}" for u in users)
    return f"eden-memory search QUERY -a {shlex.quote(agent)}{named}"


def _owner(key: ScopeKey) -> str:
    return key.user_id or key.session_id or key.agent_id


def search(
    ctx: typer.Context,
    queries: Annotated[list[str], typer.Argument(help="1 to 3 queries.")],
    agent: Agent,
    session: Session = "cli",
    user: Users = [],  # noqa: B006
    top_k: Annotated[int, typer.Option(help="Results per query.")] = 10,
    mode: SearchMode = SearchMode.HYBRID,
    debug: bool = False,
    as_json: Json = False,
) -> None:
    """search_facts, as the agent's tool would run it; what each score means follows the
    table (on stderr when piped), and an empty table says why."""
    state = ctx.ensure_object(State)

    async def work(memory: MemoryService) -> None:
        conv = memory.conversation(AgentMemoryConfig(agent), session, user)
        found = await memory.search_facts(conv, queries, top_k, debug=debug, mode=mode)
        data = [
            [
                shown(r.relevance),
                _num(r.semantic_score),
                _num(r.keyword_score),
                r.fact.scope.value,
                r.fact.id,
                r.newer or "",
                r.fact.content,
            ]
            for r in found.results
        ]
        records = [
            {
                "relevance": r.relevance,
                "score": r.score,
                "semantic": r.semantic_score,
                "keyword": r.keyword_score,
                "scope": r.fact.scope.value,
                "id": r.fact.id,
                "newer": r.newer,
                "rerank": r.rerank_score,
                "content": r.fact.content,
            }
            for r in found.results
        ]
        headers = ("relevance", "cosine", "bm25", "scope", "id", "newer", "content")
        rows(headers, data, as_json, records, stack=("id", "content"))
        if found.results and not as_json:
            notes(legend())
        explain(found, agent, as_json)
        if not found.results:
            await explain_empty(memory, state, agent)

    state.run(work)


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def users(
    ctx: typer.Context,
    agent: Agent,
    after: Annotated[
        str | None, typer.Option(help="Continue after this user (the last one shown).")
    ] = None,
    limit: Annotated[int, typer.Option(help="Users per page (1 to 1000).")] = 50,
) -> None:
    """The users with memory of their own (facts, a blob or notes), one per line, ascending."""
    state = ctx.ensure_object(State)

    async def work(memory: MemoryService) -> None:
        page = await memory.admin.users_with_memory(agent, after, limit)
        for name in page.names:
            say(name)
        if page.next_after is not None:
            more = f"--after {shlex.quote(page.next_after)}"
            complain(f"(more: eden-memory users -a {shlex.quote(agent)} {more})")
        elif not page.names and after is None and not await explain_empty(memory, state, agent):
            complain(f"(no user of agent {agent!r} holds memory)")

    state.run(work)
