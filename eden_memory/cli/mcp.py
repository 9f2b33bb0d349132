"""``eden-memory mcp``: serve one agent's memory over MCP (stdio, or streamable HTTP locally).

Pin the user with ``--user`` whenever the client acts for one person: the server then refuses
every call that names someone else. Without ``--user`` the client chooses per call (a trusted
host serving many users).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated, Literal

import typer

from eden_memory.cli.runtime import State
from eden_memory.config import EdenMemoryConfig
from eden_memory.domain.errors import MissingExtraError
from eden_memory.domain.model_choice import ModelRole
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
    port: Annotated[int, typer.Option(min=1, max=65535, help="HTTP port on 127.0.0.1.")] = 8765,
) -> None:
    """Serve search_facts, the memory context, recording and session end over MCP."""
    try:
        from eden_memory.adapters.mcp.identity import ServerIdentity
        from eden_memory.adapters.mcp.server import build_server
    except ModuleNotFoundError as missing:
        if missing.name is None or missing.name.split(".")[0] != "mcp":
            raise
        raise MissingExtraError("the MCP server", "mcp", "mcp") from None

    if transport not in ("stdio", "http"):
        raise typer.BadParameter("transport must be stdio or http")
    state = ctx.ensure_object(State)
    warning = no_llm_warning(state.config())
    if warning:
        print(warning, file=sys.stderr, flush=True)
    identity = ServerIdentity(AgentMemoryConfig(agent), user_id=user, session_id=session)

    async def serve() -> None:
        async with state.memory(creates=True) as memory:
            server = build_server(memory, identity)
            if transport == "stdio":
                await server.run_stdio_async()
            else:  # localhost only: the server carries no authentication
                await server.run_streamable_http_async(host="127.0.0.1", port=port)

    asyncio.run(serve())


def no_llm_warning(config: EdenMemoryConfig) -> str | None:
    """What a server without a model for some role cannot do, said once at start."""
    missing = [role.value for role in ModelRole if config.provider_for(role) == "none"]
    if not missing:
        return None
    return (
        f"warning: no LLM for {', '.join(missing)} (set EDEN_MEMORY_LLM_PROVIDER): "
        "record_messages stores turns but cannot form memory from them, and end_session "
        "fails; search_facts and get_memory_context read what the store already holds"
    )
