"""Driving adapter: eden-memory as an MCP server (official ``mcp`` SDK, 2.x)."""
