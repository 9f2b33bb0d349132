"""``eden-memory mcp``: serve one agent's memory over MCP (stdio, or streamable HTTP locally).

Pin the user with ``--user`` whenever the client acts for one person: the server then refuses
every call that names someone else. Without ``--user`` the client chooses per call (a trusted
host serving many users).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

import typer

from eden_memory.cli.runtime import State
from eden_memory.domain.scopes import AgentMemoryConfig

Transport = Literal["stdio", "http"]


def mcp_command(
    ctx: typer.Context,
    agent: Annotated[str, typer.Option("--agent", "-a", envvar="EDEN_MEMORY_MCP_AGENT")],
    user: Annotated[
        str | None,
        typer.Option("--user", "-u", envvar="EDEN_MEMORY_MCP_USER", help="Serve this user only."),
    ] = None,
    session: Annotated[
        str | None, typer.Option("--session", "-s", envvar="EDEN_MEMORY_MCP_SESSION")
    ] = None,
    transport: Annotated[str, typer.Option(help="stdio or http (streamable HTTP).")] = "stdio",
    port: Annotated[int, typer.Option(help="HTTP port on 127.0.0.1.")] = 8765,
) -> None:
    """Serve search_facts, the memory context, recording and session end over MCP."""
    from eden_memory.adapters.mcp.identity import ServerIdentity
    from eden_memory.adapters.mcp.server import build_server

    if transport not in ("stdio", "http"):
        raise typer.BadParameter("transport must be stdio or http")
    state = ctx.ensure_object(State)
    identity = ServerIdentity(AgentMemoryConfig(agent), user_id=user, session_id=session)

    async def serve() -> None:
        async with state.memory() as memory:
            server = build_server(memory, identity)
            if transport == "stdio":
                await server.run_stdio_async()
            else:  # localhost only: the server carries no authentication
                await server.run_streamable_http_async(host="127.0.0.1", port=port)

    asyncio.run(serve())
