"""``eden-memory console``: the memory console, a local web page over the management API.

It binds to 127.0.0.1 unless told otherwise, and prints a URL with a random token (or
uses ``EDEN_MEMORY_CONSOLE_TOKEN``); nothing is served without it. Only the agents named
with ``--agent`` are reachable.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Annotated

import typer

from eden_memory.cli.output import complain, say
from eden_memory.cli.runtime import State
from eden_memory.domain.errors import MissingExtraError

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
CONSOLE_PACKAGES = {"starlette", "jinja2", "uvicorn", "multipart", "python_multipart"}


def console_command(
    ctx: typer.Context,
    agent: Annotated[
        list[str], typer.Option("--agent", "-a", help="An agent to open (repeat for several).")
    ],
    host: Annotated[str, typer.Option(help="Address to bind (127.0.0.1: this machine only).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8766,
    read_only: Annotated[
        bool, typer.Option("--read-only", help="Show everything, change nothing.")
    ] = False,
    token: Annotated[
        str | None,
        typer.Option(
            envvar="EDEN_MEMORY_CONSOLE_TOKEN", help="The access token (default: random)."
        ),
    ] = None,
) -> None:
    """Serve the memory console: see and manage what the agents remember, in a browser."""
    try:
        import uvicorn

        from eden_memory.adapters.console.app import build_console
        from eden_memory.adapters.console.guard import Guard, new_token
        from eden_memory.adapters.console.memory import ConsoleMemory
    except ModuleNotFoundError as missing:
        if (missing.name or "").split(".")[0] not in CONSOLE_PACKAGES:
            raise
        raise MissingExtraError("the console", "console", missing.name or "starlette") from None

    secret = token or new_token()
    loopback = _is_loopback(host)
    guard = Guard(secret, read_only, LOOPBACK_NAMES | {host} if loopback else frozenset())
    state = ctx.ensure_object(State)
    if not loopback:
        complain(
            f"warning: the console listens on {host}: anyone who can reach it and has the "
            "token can read (and, unless --read-only, change) these agents' memory"
        )

    async def serve() -> None:
        async with state.memory() as service:
            app = build_console(ConsoleMemory(service, agent), guard)
            config = uvicorn.Config(app, host=host, port=port, log_level="warning")
            server = uvicorn.Server(config)
            shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
            say(f"eden-memory console on {', '.join(agent)}{' (read-only)' if read_only else ''}:")
            say(f"  http://{shown}:{port}/?token={secret}")
            await server.serve()

    asyncio.run(serve())


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
