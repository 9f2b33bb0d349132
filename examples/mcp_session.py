"""An MCP client session against eden-memory's MCP server, in one process.

A real host would start ``eden-memory mcp --agent support-bot --user alice`` and connect over
stdio or HTTP; the calls are the same. The server is pinned to Alice, so a call naming Bob is
refused.
"""

from __future__ import annotations

import asyncio

from mcp import Client
from mcp.types import TextContent

from eden_memory.adapters.mcp.identity import ServerIdentity
from eden_memory.adapters.mcp.server import build_server
from examples.common import AGENT, remembering_memory


async def main() -> str:
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
    asyncio.run(main())
