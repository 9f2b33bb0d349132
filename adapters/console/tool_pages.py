"""What the agent sees: its search tool with every score (and what each means), its context
XML (and what its recent facts leave out); and the export."""

from __future__ import annotations

from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from eden_memory.adapters.console.downloads import attachment
from eden_memory.adapters.console.memory import PREVIEW_SESSION, ConsoleMemory
from eden_memory.adapters.console.params import number, required, scope_key, text, where
from eden_memory.adapters.console.rendering import page
from eden_memory.application.search.empty import nothing_found
from eden_memory.application.search.score_meaning import MEANINGS, NEWER
from eden_memory.domain.scopes import Scope, ScopeKey


async def search(request: Request) -> Response:
    """``search_facts`` with ``debug``: each result's semantic, keyword and fused scores; an
    empty answer says why, with the hits held back under the relevance line."""
    memory: ConsoleMemory = request.app.state.memory
    params = request.query_params
    agent_id, user_id, session_id = where(params)
    query, top_k = text(params, "q"), number(params, "top_k", 10, 50)
    found = None
    if query is not None:
        found = await memory.search(agent_id, user_id, session_id, query, top_k)
    facts = {}
    if found is not None and found.debug is not None:  # every fact a retriever ranked, by id
        ranked = {i for q in found.debug.queries for i, _ in [*q.semantic, *q.keyword]}
        facts = {f.id: f for f in await memory.facts_by_id(agent_id, sorted(ranked))}
    return page(
        request,
        "search.html",
        agent=agent_id,
        user=user_id,
        session=session_id,
        q=query or "",
        top_k=top_k,
        found=found,
        facts=facts,
        meanings=MEANINGS,
        newer=NEWER,
        why=None if found is None else nothing_found(found, agent_id),
    )


async def context(request: Request) -> Response:
    memory: ConsoleMemory = request.app.state.memory
    params = request.query_params
    agent_id, user_id, session_id = where(params)
    shown = await memory.context(agent_id, user_id, session_id)
    return page(
        request,
        "context.html",
        agent=agent_id,
        user=user_id,
        session=session_id,
        preview_session=PREVIEW_SESSION,
        built=shown.context,
        left_out=shown.note,
    )


async def blob(request: Request) -> Response:
    return await blob_page(request, scope_key(request.query_params))


async def blob_page(
    request: Request,
    key: ScopeKey,
    *,
    draft: str | None = None,
    refusal: str = "",
    code: int = 200,
) -> Response:
    """A consolidated blob, with the form that replaces it (and the seeds' warning); after a
    refused save, with the text typed (``draft``) beside the newer blob."""
    memory: ConsoleMemory = request.app.state.memory
    found = await memory.blob(key)
    return page(
        request,
        "blob.html",
        code,
        agent=key.agent_id,
        key=key,
        blob=found,
        limit=memory.word_limit(key.scope),
        user_scope=Scope.USER,
        draft=found.content if draft is None else draft,
        refusal=refusal,
    )


async def erase(request: Request) -> Response:
    """The typed confirmation before erasing a user."""
    memory: ConsoleMemory = request.app.state.memory
    params = request.query_params
    agent_id, user_id = required(params, "agent"), required(params, "user")
    memory.agent(agent_id)
    return page(request, "erase.html", agent=agent_id, user=user_id)


async def export(request: Request) -> Response:
    """One agent's memory as JSON Lines, the CLI's ``export`` format, as a download."""
    memory: ConsoleMemory = request.app.state.memory
    agent_id = required(request.query_params, "agent")
    lines = memory.export(agent_id)

    async def body() -> AsyncIterator[str]:
        async for line in lines:
            yield line + "\n"

    return StreamingResponse(
        body(),
        media_type="application/x-ndjson",
        headers={"content-disposition": attachment(f"{agent_id}.jsonl")},
    )
