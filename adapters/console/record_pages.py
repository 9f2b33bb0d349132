"""One record, a fact or a reflection: its text, fields and history, and the form that edits
it; after a refused save, the record as it is now with the text typed kept (``draft``).

Each kind names its template (``fact.html``, ``reflection.html``), how it is read and what
else its page shows (a fact's successor); the page itself is one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.adapters.console.params import required
from eden_memory.adapters.console.rendering import page
from eden_memory.domain.models import Fact

Reader = Callable[[ConsoleMemory, str, str], Awaitable[Any]]


async def _nothing(memory: ConsoleMemory, agent_id: str, found: Any) -> dict[str, object]:
    return {}


async def _successor(memory: ConsoleMemory, agent_id: str, found: Fact) -> dict[str, object]:
    """The fact that superseded this one, shown by its text."""
    ids = [found.superseded_by] if found.superseded_by else []
    successors = await memory.facts_by_id(agent_id, ids) if ids else []
    return {"successor": successors[0] if successors else None}


@dataclass(frozen=True)
class RecordKind:
    name: str  # the template, and the name the template gives the record
    read: Reader
    history: Callable[[ConsoleMemory, str, str], Awaitable[Sequence[object]]]
    beside: Callable[[ConsoleMemory, str, Any], Awaitable[dict[str, object]]] = _nothing


FACT = RecordKind("fact", ConsoleMemory.fact, ConsoleMemory.history, _successor)
REFLECTION = RecordKind("reflection", ConsoleMemory.reflection, ConsoleMemory.reflection_history)


def record_route(kind: RecordKind) -> Callable[[Request], Awaitable[Response]]:
    """The page of the record ``?agent=…&id=…`` names."""

    async def show(request: Request) -> Response:
        params = request.query_params
        return await record_page(request, kind, required(params, "agent"), required(params, "id"))

    return show


async def record_page(
    request: Request,
    kind: RecordKind,
    agent_id: str,
    record_id: str,
    *,
    draft: str | None = None,
    refusal: str = "",
    code: int = 200,
) -> Response:
    """One record with its history; after a refused save, with the text typed (``draft``)."""
    memory: ConsoleMemory = request.app.state.memory
    found = await kind.read(memory, agent_id, record_id)
    return page(
        request,
        f"{kind.name}.html",
        code,
        agent=agent_id,
        **{kind.name: found},
        **await kind.beside(memory, agent_id, found),
        history=await kind.history(memory, agent_id, record_id),
        draft=found.content if draft is None else draft,
        refusal=refusal,
    )
