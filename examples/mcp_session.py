"""An MCP client session against eden-memory's MCP server, in one process, offline.

    pip install -e ".[embedded,mcp]"
    python examples/mcp_session.py

No model takes part (the client calls the tools itself), so there is no ``--real``. A real
host would start ``eden-memory mcp --agent support-bot --user alice`` and connect over stdio
or HTTP; the calls are the same. The server is pinned to Alice, so a call naming Bob is
refused (the server logs the refusal).
"""

from __future__ import annotations

import sys

from eden_memory import MissingExtraError

try:
    from eden_memory.adapters.mcp.server import build_server
except MissingExtraError as missing:  # without the extra: one line saying which
    sys.exit(f"error: {missing}")

from mcp import Client
from mcp.types import TextContent

from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.demo.alice import AGENT, remembering_memory, run_example


async def main(real: bool = False) -> str:
    async with remembering_memory() as memory:
        server = build_server(memory, ServerIdentity(AGENT, user_id="alice", session_id="mcp-1"))
        async with Client(server) as client:
            tools = [tool.name for tool in (await client.list_tools()).tools]
            found = await client.call_tool("search_facts", {"query": ["email"]})
            refused = await client.call_tool("get_memory_context", {"user_id": "bob"})
    text = "\n".join(c.text for c in found.content if isinstance(c, TextContent))
    print("tools:", ", ".join(sorted(tools)))
    print(text)
    print("a call for bob is refused:", refused.is_error)
    return text


if __name__ == "__main__":
    run_example(main)
