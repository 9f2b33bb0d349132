"""The ``eden-memory`` command: the demo, inspection and maintenance of a memory store."""

from eden_memory.cli.main import app, main

__all__ = ["app", "main"]
