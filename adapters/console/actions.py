"""The writes, with the management API's semantics; each answers with a redirect (POST, then GET).

An edit carries the version its page showed; a save on a record that moved on since (another
tab, a consolidation) is refused with that page again: the newer text, a message, and the text
typed kept in the form, so nothing is lost.

Every handler reads its form through ``checked_form``: no write happens without the session's
CSRF token (the guard has already refused read-only mode and other sites' requests).
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.adapters.console.params import required, scope_key, text, version
from eden_memory.adapters.console.record_pages import FACT, REFLECTION, record_page
from eden_memory.adapters.console.rendering import link
from eden_memory.adapters.console.tool_pages import blob_page
from eden_memory.domain.errors import ConflictError, InvalidInputError, StaleEditError

BACK_PAGES = frozenset({"/agent", "/user", "/session"})


class CsrfError(Exception):
    """A write without this session's token: refused before anything is read."""


async def checked_form(request: Request) -> FormData:
    form = await request.form()
    given = form.get("csrf")
    expected = getattr(request.state, "csrf", "")
    if not expected or not isinstance(given, str) or not hmac.compare_digest(given, expected):
        raise CsrfError
    return form


def _memory(request: Request) -> ConsoleMemory:
    memory: ConsoleMemory = request.app.state.memory
    return memory


def _back(form: FormData, agent_id: str) -> str:
    """Where to go after a write: the scope page the form was on, or the agent's page.

    Only those pages of this console: a ``back`` of ``//elsewhere`` or ``/\\elsewhere`` would
    otherwise make the console redirect the browser to another site."""
    target = text(form, "back") or ""
    try:
        parts = urlsplit(target)
    except ValueError:  # "http://[": not a URL at all
        return link("/agent", agent=agent_id)
    if parts.scheme or parts.netloc or parts.path not in BACK_PAGES or "\\" in target:
        return link("/agent", agent=agent_id)
    return target


def _go(target: str, note: str) -> Response:
    joiner = "&" if "?" in target else "?"
    return RedirectResponse(f"{target}{joiner}note={note}", status_code=303)


def _content(form: FormData) -> str:
    value = form.get("content")
    if not isinstance(value, str):
        raise InvalidInputError("the form has no content")
    return value


def _refusal(error: ConflictError) -> str:
    """What a refused save says: why, and that the text typed is still there."""
    return f"{error} Your text is kept in the form below; save it again to put it in place."


async def edit_fact(request: Request) -> Response:
    """A save based on the version the page showed; a stale one shows the newer text."""
    form = await checked_form(request)
    agent_id, fact_id = required(form, "agent"), required(form, "id")
    content, based_on = _content(form), version(form)
    try:
        await _memory(request).edit_fact(agent_id, fact_id, content, based_on)
    except StaleEditError as error:
        return await record_page(
            request, FACT, agent_id, fact_id, draft=content, refusal=_refusal(error), code=409
        )
    return _go(link("/fact", agent=agent_id, id=fact_id), "fact-edited")


async def delete_fact(request: Request) -> Response:
    form = await checked_form(request)
    agent_id = required(form, "agent")
    await _memory(request).delete_fact(agent_id, required(form, "id"))
    return _go(link("/facts", agent=agent_id), "fact-deleted")


async def edit_reflection(request: Request) -> Response:
    """A stale save, or one on a note absorbed meanwhile, shows the note as it is now."""
    form = await checked_form(request)
    agent_id, reflection_id = required(form, "agent"), required(form, "id")
    content, based_on = _content(form), version(form)
    try:
        await _memory(request).edit_reflection(agent_id, reflection_id, content, based_on)
    except ConflictError as error:
        return await record_page(
            request,
            REFLECTION,
            agent_id,
            reflection_id,
            draft=content,
            refusal=_refusal(error),
            code=409,
        )
    return _go(_back(form, agent_id), "reflection-edited")


async def delete_reflection(request: Request) -> Response:
    form = await checked_form(request)
    agent_id = required(form, "agent")
    await _memory(request).delete_reflection(agent_id, required(form, "id"))
    return _go(_back(form, agent_id), "reflection-deleted")


async def replace_blob(request: Request) -> Response:
    """A manual edit replaces the consolidated memory completely: the form says so and asks."""
    form = await checked_form(request)
    key = scope_key(form)
    if form.get("understood") != "yes":
        raise InvalidInputError("tick the box: a manual edit replaces the consolidated memory")
    content, based_on = _content(form), version(form)
    try:
        await _memory(request).replace_blob(key, content, based_on)
    except StaleEditError as error:
        return await blob_page(request, key, draft=content, refusal=_refusal(error), code=409)
    target = link(
        "/blob", agent=key.agent_id, scope=key.scope.value, user=key.user_id, session=key.session_id
    )
    return _go(target, "blob-replaced")


async def erase_user(request: Request) -> Response:
    """Erase everything of one user with this agent, once the user id is typed to confirm."""
    form = await checked_form(request)
    agent_id, user_id = required(form, "agent"), required(form, "user")
    if text(form, "confirm") != user_id:
        raise InvalidInputError(f"type the user id ({user_id}) to confirm the erasure")
    await _memory(request).erase_user(agent_id, user_id)
    return _go(link("/agent", agent=agent_id), "user-erased")
