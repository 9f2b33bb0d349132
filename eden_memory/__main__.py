"""``python -m eden_memory`` is the ``eden-memory`` command."""

from eden_memory.cli import main

main()
