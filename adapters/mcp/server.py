"""The MCP server: ``search_facts``, the memory context, recording a turn, session end.

Every tool takes optional ``user_id`` and ``session_id``; ``ServerIdentity`` decides whether
the call may use them. Errors reach the client as tool errors (``is_error``), never as a
dropped connection.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.adapters.tools.search_facts import DESCRIPTION, SearchFactsHandler
from eden_memory.application.conversation import Conversation, new_message
from eden_memory.application.reports import FormationReport
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import EdenMemoryError


class TurnMessage(BaseModel):
    """One message of a turn, as the MCP client sends it."""

    role: str
    text: str
    author_id: str | None = None
    id: str | None = None


def build_server(memory: MemoryService, identity: ServerIdentity) -> MCPServer:
    """An ``MCPServer`` over ``memory``; run it with ``.run("stdio")`` or streamable HTTP."""
    server: MCPServer = MCPServer(
        "eden-memory",
        instructions="Long-term memory: read the context, search facts, record each turn.",
    )

    def who(user_id: str | None, session_id: str | None) -> Conversation:
        try:
            return identity.conversation(memory, user_id, session_id)
        except EdenMemoryError as error:
            raise ToolError(str(error)) from None

    @server.tool(description=DESCRIPTION)
    async def search_facts(
        queries: list[str],
        top_k: int | None = None,
        debug: bool = False,
        user_id: str | None = None,
        session_id: str | None = None,
    ) -> str:
        conv = who(user_id, session_id)
        args: dict[str, Any] = {"queries": queries, "debug": debug}
        if top_k is not None:
            args["top_k"] = top_k
        reply = await SearchFactsHandler(memory, conv).handle(
            {"name": "search_facts", "args": args}
        )
        if reply.is_error:
            raise ToolError(reply.text)
        return reply.text

    @server.tool()
    async def get_memory_context(user_id: str | None = None, session_id: str | None = None) -> str:
        """The <MemoryContext> XML to put in the system prompt (empty when nothing is known)."""
        conv = who(user_id, session_id)
        return (await memory.get_context(conv)).xml

    @server.tool()
    async def record_messages(
        messages: list[TurnMessage], user_id: str | None = None, session_id: str | None = None
    ) -> str:
        """Record a turn after it happened; memories form in the background when due."""
        conv = who(user_id, session_id)
        now = datetime.now(UTC)
        batch = [new_message(m.role, m.text, now, m.author_id, m.id) for m in messages]
        try:
            done = await memory.record_messages(conv, batch)
        except (EdenMemoryError, ValueError) as error:
            raise ToolError(f"record_messages error: {error}") from None
        started = "formation started" if done.formation_started else "formation not due yet"
        return f"recorded {len(batch)} message(s); {started}"

    @server.tool()
    async def end_session(user_id: str | None = None, session_id: str | None = None) -> str:
        """Form what is left of the session and consolidate its memory."""
        conv = who(user_id, session_id)
        return _ended(await memory.end_session(conv))

    return server


def _ended(report: FormationReport | None) -> str:
    if report is None:
        return "session ended"
    said = "session ended; memories formed" if report.messages else "session ended"
    # A failed or rejected consolidation keeps its buffer: say so, a later run absorbs it.
    kept = [
        f"{c.scope_key} ({c.status})"
        for c in report.consolidations
        if c.status in ("failed", "rejected")
    ]
    return f"{said}; consolidation not kept for {', '.join(kept)} (buffer kept)" if kept else said
