"""The MCP server: ``search_facts``, the memory context, recording a turn, session end.

Every tool takes optional ``user_id`` and ``session_id``; ``ServerIdentity`` decides whether
the call may use them. Arguments are checked against the published schema (unknown ones
refused), and every error reaches the client as a tool error with its reason
(``adapters.mcp.strict``), never as a dropped connection or a bare "Error executing tool".
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from eden_memory.domain.errors import MissingExtraError

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ModuleNotFoundError:
    raise MissingExtraError("the MCP server", "mcp", "mcp") from None

from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.adapters.mcp.strict import strict_tool
from eden_memory.adapters.tools.arguments import VALIDATORS, search_fields
from eden_memory.adapters.tools.search_facts import DESCRIPTION, SearchFactsHandler
from eden_memory.application.conversation import Conversation
from eden_memory.application.formation.reports import FormationReport
from eden_memory.application.service import MemoryService

RECORD_DESCRIPTION = (
    "Record a turn after it happened; memories form in the background when due. "
    "`messages` is a list in any of these shapes: OpenAI chat messages (role user, assistant, "
    "tool; content a string or parts; tool_calls), Anthropic messages (content blocks, "
    "tool_use, tool_result), Gemini contents (role user or model, parts) or plain "
    '{"role", "text", "author_id", "author_name", "id"}. assistant and model mean the agent; '
    "system messages are skipped. A batch with a bad message is refused as a whole."
)
_IDENTITY = {
    "user_id": (str | None, Field(None, description="The user (when the server is not pinned).")),
    "session_id": (str | None, Field(None, description="The session (default: the server's).")),
}


def build_server(memory: MemoryService, identity: ServerIdentity) -> MCPServer:
    """An ``MCPServer`` over ``memory``; run it with ``.run("stdio")`` or streamable HTTP."""

    def who(user_id: str | None, session_id: str | None) -> Conversation:
        return identity.conversation(memory, user_id, session_id)

    async def search_facts(
        query: Any = None,
        queries: Any = None,
        top_k: int | None = None,
        debug: bool = False,
        user_id: str | None = None,
        session_id: str | None = None,
    ) -> str:
        args = {"query": query, "queries": queries, "top_k": top_k, "debug": debug}
        call = {"name": "search_facts", "args": {k: v for k, v in args.items() if v is not None}}
        reply = await SearchFactsHandler(memory, who(user_id, session_id)).handle(call)
        if reply.is_error:
            raise ToolError(reply.text)
        return reply.text

    async def get_memory_context(user_id: str | None = None, session_id: str | None = None) -> str:
        """The <MemoryContext> XML to put in the system prompt. Empty when nothing is stored;
        when only facts older than the recent window are, a line saying search_facts finds
        them."""
        conversation = who(user_id, session_id)
        found = await memory.get_context(conversation)
        if found.xml:
            return found.xml
        note = (await memory.admin.fact_window(conversation, found.facts)).note()
        return "" if note is None else f"(empty memory context: {note}: call search_facts)"

    async def record_messages(
        messages: list[dict[str, Any]], user_id: str | None = None, session_id: str | None = None
    ) -> str:
        done = await memory.record_messages(who(user_id, session_id), messages)
        started = "formation started" if done.formation_started else "formation not due yet"
        recorded = done.state.pending_messages if done.state else 0
        return f"recorded {done.messages} message(s) ({recorded} pending); {started}"

    async def end_session(user_id: str | None = None, session_id: str | None = None) -> str:
        """Form what is left of the session and consolidate its memory."""
        return _ended(await memory.end_session(who(user_id, session_id)))

    search = {**search_fields(memory.settings.search), **_IDENTITY}
    return MCPServer(
        "eden-memory",
        instructions="Long-term memory: read the context, search facts, record each turn.",
        tools=[
            strict_tool(search_facts, DESCRIPTION, search, VALIDATORS),
            strict_tool(get_memory_context),
            strict_tool(record_messages, RECORD_DESCRIPTION),
            strict_tool(end_session),
        ],
    )


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
