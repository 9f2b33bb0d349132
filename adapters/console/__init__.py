"""The memory console: a local web page over the management API (``eden-memory console``).

A driving adapter, like the MCP server: it reaches the memory only through ``ConsoleMemory``
(``memory.py``), which adapts what the ``MemoryService`` offers and admits only the agents
the operator opened the console on.
"""
