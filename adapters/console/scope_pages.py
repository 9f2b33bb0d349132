"""The pages of an agent, a user of it and a session: memory as the agent's prompt holds it.

Each shows the consolidated blob (version, words of the limit, last consolidated), the
reflections awaiting consolidation against the threshold, the stats of its scopes, and the
newest facts, with links further in.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.adapters.console.params import ident, required
from eden_memory.adapters.console.rendering import page
from eden_memory.domain.ids import UserId
from eden_memory.domain.models import FactStatus
from eden_memory.domain.participants import reader_refusal
from eden_memory.domain.scopes import Scope, ScopeKey

RECENT_FACTS = 10
OWNERS_PAGE = 50


def _memory(request: Request) -> ConsoleMemory:
    memory: ConsoleMemory = request.app.state.memory
    return memory


async def index(request: Request) -> Response:
    return page(request, "index.html")


async def _scope(memory: ConsoleMemory, key: ScopeKey) -> dict[str, object]:
    """One scope's blob and buffer, as a panel shows them."""
    return {
        "key": key,
        "blob": await memory.blob(key),
        "buffer": await memory.buffered(key),
        "threshold": next(
            s.threshold
            for s in await memory.status(key.agent_id, key.user_id, key.session_id)
            if s.key == key
        ),
    }


async def agent(request: Request) -> Response:
    memory, params = _memory(request), request.query_params
    agent_id = required(params, "agent")
    users = await memory.users(agent_id, ident(params, "users_after"), OWNERS_PAGE)
    sessions = await memory.sessions(agent_id, ident(params, "sessions_after"), OWNERS_PAGE)
    recent = await memory.facts(
        agent_id, user_id=None, scope=None, status=FactStatus.ACTIVE, after=None, limit=RECENT_FACTS
    )
    return page(
        request,
        "agent.html",
        agent=agent_id,
        panel=await _scope(memory, ScopeKey.agent(agent_id)),
        stats=await memory.stats(agent_id, None, None),
        users=users.names,
        more_users=users.next_after,
        sessions=sessions.names,
        more_sessions=sessions.next_after,
        facts=recent,
    )


async def user(request: Request) -> Response:
    memory, params = _memory(request), request.query_params
    agent_id, user_id = required(params, "agent"), required(params, "user")
    recent = await memory.facts(
        agent_id,
        user_id=user_id,
        scope=Scope.USER,
        status=FactStatus.ACTIVE,
        after=None,
        limit=RECENT_FACTS,
    )
    return page(
        request,
        "user.html",
        agent=agent_id,
        user=user_id,
        panel=await _scope(memory, ScopeKey.user(agent_id, user_id)),
        stats=await memory.stats(agent_id, user_id, None),
        sessions=await memory.sessions_of(agent_id, user_id),
        facts=recent,
        contributions=await memory.contributions(agent_id, user_id),
    )


async def session(request: Request) -> Response:
    memory, params = _memory(request), request.query_params
    agent_id, session_id = required(params, "agent"), required(params, "session")
    state = await memory.session(agent_id, session_id)
    user = ident(params, "user")
    # Seen as a user the session's turns refuse, a prompt gets no context of it: say why.
    refusal = reader_refusal(state, [UserId(user)]) if user else None
    return page(
        request,
        "session.html",
        agent=agent_id,
        session=session_id,
        user=user,
        refusal=refusal,
        state=state,
        panel=await _scope(memory, ScopeKey.session(agent_id, session_id)),
        stats=await memory.stats(agent_id, None, session_id),
    )
