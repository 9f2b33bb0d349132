"""The console as an ASGI app: routes, the guard in front, errors as pages."""

from __future__ import annotations

from eden_memory.domain.errors import MissingExtraError

try:
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ModuleNotFoundError as missing:
    raise MissingExtraError("the console", "console", missing.name or "starlette") from None

from eden_memory.adapters.console import (
    actions,
    fact_pages,
    record_pages,
    scope_pages,
    tool_pages,
)
from eden_memory.adapters.console.actions import CsrfError
from eden_memory.adapters.console.guard import Guard, GuardMiddleware
from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.adapters.console.rendering import HERE, page, templates
from eden_memory.domain.errors import (
    ConflictError,
    EdenMemoryError,
    InvalidInputError,
    NotFoundError,
)

PAGES = [
    Route("/", scope_pages.index),
    Route("/agent", scope_pages.agent),
    Route("/user", scope_pages.user),
    Route("/session", scope_pages.session),
    Route("/facts", fact_pages.facts),
    Route("/fact", record_pages.record_route(record_pages.FACT)),
    Route("/reflection", record_pages.record_route(record_pages.REFLECTION)),
    Route("/search", tool_pages.search),
    Route("/context", tool_pages.context),
    Route("/blob", tool_pages.blob),
    Route("/erase", tool_pages.erase),
    Route("/export", tool_pages.export),
]
ACTIONS = [
    Route("/fact/edit", actions.edit_fact, methods=["POST"]),
    Route("/fact/delete", actions.delete_fact, methods=["POST"]),
    Route("/reflection/edit", actions.edit_reflection, methods=["POST"]),
    Route("/reflection/delete", actions.delete_reflection, methods=["POST"]),
    Route("/blob/replace", actions.replace_blob, methods=["POST"]),
    Route("/user/erase", actions.erase_user, methods=["POST"]),
]
# Most specific first: NotFoundError is an InvalidInputError.
STATUS: list[tuple[type[Exception], int, str]] = [
    (NotFoundError, 404, "Not found"),
    (InvalidInputError, 400, "Not accepted"),
    (ConflictError, 409, "Changed meanwhile"),
    (CsrfError, 403, "Refused"),
    (EdenMemoryError, 500, "The memory failed"),
]
CSRF_MESSAGE = "This form is stale or came from elsewhere: reload the page and try again."


async def _error(request: Request, error: Exception) -> Response:
    for kind, status, title in STATUS:
        if isinstance(error, kind):
            message = CSRF_MESSAGE if isinstance(error, CsrfError) else str(error)
            return page(request, "error.html", status, title=title, message=message)
    raise error


def build_console(memory: ConsoleMemory, guard: Guard) -> Starlette:
    """The console over ``memory``; every request passes ``guard`` first."""
    app = Starlette(
        routes=[*PAGES, *ACTIONS, Mount("/static", StaticFiles(directory=HERE / "static"))],
        middleware=[Middleware(GuardMiddleware, guard=guard)],
        exception_handlers={kind: _error for kind, _, _ in STATUS},
    )
    app.state.memory = memory
    app.state.read_only = guard.read_only
    app.state.templates = templates()
    return app
