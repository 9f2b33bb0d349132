"""Facts: a keyset-paged list, newest first, and one fact with its history."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.adapters.console.paging import next_cursor, position
from eden_memory.adapters.console.params import ident, number, required, text
from eden_memory.adapters.console.rendering import page
from eden_memory.application.arguments import optional_member
from eden_memory.domain.models import FactStatus
from eden_memory.domain.scopes import Scope

PAGE = 50
ALL = "all"


async def facts(request: Request) -> Response:
    memory: ConsoleMemory = request.app.state.memory
    params = request.query_params
    agent_id = required(params, "agent")
    user_id = ident(params, "user")
    scope = optional_member(Scope, text(params, "scope"), "scope")
    status_name = text(params, "status") or FactStatus.ACTIVE.value
    status = None if status_name == ALL else optional_member(FactStatus, status_name, "status")
    limit = number(params, "limit", PAGE, 500)
    after = text(params, "after")
    found = await memory.facts(
        agent_id,
        user_id=user_id,
        scope=scope,
        status=status,
        after=position(after),
        limit=limit + 1,  # one more says whether there is a next page
    )
    return page(
        request,
        "facts.html",
        agent=agent_id,
        user=user_id,
        scope=scope.value if scope else "",
        status=status_name,
        limit=limit,
        after=after,
        facts=found[:limit],
        next=next_cursor(found, limit),
    )


async def fact(request: Request) -> Response:
    params = request.query_params
    return await fact_page(request, required(params, "agent"), required(params, "id"))


async def fact_page(
    request: Request,
    agent_id: str,
    fact_id: str,
    *,
    draft: str | None = None,
    refusal: str = "",
    code: int = 200,
) -> Response:
    """One fact with its history; after a refused save, with the text typed (``draft``)."""
    memory: ConsoleMemory = request.app.state.memory
    found = await memory.fact(agent_id, fact_id)
    successors = (
        await memory.facts_by_id(agent_id, [found.superseded_by]) if found.superseded_by else []
    )
    return page(
        request,
        "fact.html",
        code,
        agent=agent_id,
        fact=found,
        history=await memory.history(agent_id, fact_id),
        successor=successors[0] if successors else None,
        draft=found.content if draft is None else draft,
        refusal=refusal,
    )
