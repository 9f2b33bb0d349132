"""One reflection: its text, where it stands (buffered, or absorbed into a blob), its history,
and the form that edits it while it awaits consolidation."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.adapters.console.params import required
from eden_memory.adapters.console.rendering import page


async def reflection(request: Request) -> Response:
    params = request.query_params
    return await reflection_page(request, required(params, "agent"), required(params, "id"))


async def reflection_page(
    request: Request,
    agent_id: str,
    reflection_id: str,
    *,
    draft: str | None = None,
    refusal: str = "",
    code: int = 200,
) -> Response:
    """After a refused save, the page shows the newer text and keeps the text typed."""
    memory: ConsoleMemory = request.app.state.memory
    found = await memory.reflection(agent_id, reflection_id)
    return page(
        request,
        "reflection.html",
        code,
        agent=agent_id,
        reflection=found,
        history=await memory.reflection_history(agent_id, reflection_id),
        draft=found.content if draft is None else draft,
        refusal=refusal,
    )
