"""The templates and what they share: escaping on, links built from parameters, ages.

Autoescaping is on for every template, so any stored text (a fact ``<script>…</script>``)
is shown as text; no template marks a value ``|safe``.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.domain.ages import age_label
from eden_memory.domain.models import Fact
from eden_memory.domain.text import word_count

HERE = Path(__file__).parent
_PLAIN = re.compile(r"[A-Za-z0-9_.\-]*")  # what a query string holds as it is
NOTES = {
    "fact-edited": "The fact was edited and re-embedded; its old text is in its history.",
    "fact-deleted": "The fact was deleted.",
    "reflection-edited": "The reflection was edited.",
    "reflection-deleted": "The reflection was deleted.",
    "blob-replaced": "The consolidated memory was replaced.",
    "user-erased": "Everything of that user with this agent was erased.",
}


def link(path: str, **params: object) -> str:
    """``path?k=v&…`` with the empty parameters left out (a list page builds hundreds)."""
    given = [f"{k}={_quoted(str(v))}" for k, v in params.items() if v not in (None, "")]
    return f"{path}?{'&'.join(given)}" if given else path


def _quoted(value: str) -> str:
    return value if _PLAIN.fullmatch(value) else quote_plus(value)


def templates() -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals["link"] = link
    env.filters["words"] = word_count
    return Jinja2Templates(env=env)


def page(request: Request, name: str, code: int = 200, **values: Any) -> HTMLResponse:
    """Render a template with what every page shows: the agents, the mode, the CSRF token."""
    console: ConsoleMemory = request.app.state.memory
    now = console.now()

    def age(then: datetime | None) -> str:
        return "" if then is None else age_label(then, now)

    def fact_status(fact: Fact) -> str:
        return fact.status_label(now)

    context = {
        "agents": console.agents,
        "read_only": request.app.state.read_only,
        "csrf": getattr(request.state, "csrf", ""),
        "now": now,
        "age": age,
        "fact_status": fact_status,
        "note": NOTES.get(request.query_params.get("note", ""), ""),
        **values,
    }
    view: Jinja2Templates = request.app.state.templates
    return view.TemplateResponse(request, name, context, status_code=code)
