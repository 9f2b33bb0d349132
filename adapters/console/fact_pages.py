"""Facts: a keyset-paged list, newest first (one fact is a ``record_pages`` page)."""

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
