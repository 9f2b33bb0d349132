"""What the examples share: a memory that already knows Alice, and how an example is run.

Each file of ``examples/`` runs as ``python examples/<name>.py`` from the checkout, offline
(the models are scripted stand-ins, the store is in memory); ``--real`` swaps in a real
provider. It imports this module from the installed package, never a sibling file, so a
script run from anywhere finds it.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from eden_memory import AgentMemoryConfig, EdenMemoryError, MemoryService, new_message
from eden_memory.demo.lookup_model import LookupModel
from eden_memory.testing import KeywordEmbedder, ScriptedLLM, memory_stores

AGENT = AgentMemoryConfig("support-bot")
# The offline "model" that forms memories: it knows what to extract from these messages.
MODEL = LookupModel(
    facts={"My email is alice@example.com.": [("Alice's email is alice@example.com", "user")]},
    notes={"Please keep answers short.": [("user", "Alice wants short answers")]},
)
REAL = "--real"


@asynccontextmanager
async def remembering_memory() -> AsyncIterator[MemoryService]:
    """An in-memory service where an earlier session taught the agent Alice's email."""
    from eden_memory.factory import open_memory  # the container: a missing extra says so

    async with open_memory(
        llm=ScriptedLLM(MODEL), store=memory_stores(), embedder=KeywordEmbedder()
    ) as memory:
        earlier = memory.conversation(AGENT, "earlier-session", ["alice"])
        said = [
            new_message("user", text, datetime.now(UTC), "alice")
            for text in ("My email is alice@example.com.", "Please keep answers short.")
        ]
        await memory.record_messages(earlier, said)
        await memory.end_session(earlier)  # forms the memories now
        yield memory


def run_example(
    main: Callable[[bool], Coroutine[Any, Any, object]],
    keys: Sequence[str] = (),
    packages: Mapping[str, str] | None = None,
) -> None:
    """Run ``main(real)``, real when ``--real`` is given. What the real path lacks (one of
    ``keys``, a module of ``packages`` with its install command) and our own errors (a missing
    extra, a refused key) end the script with one line, not a traceback."""
    real = REAL in sys.argv[1:]
    if real:
        missing = _missing(keys, packages or {})
        if missing:
            sys.exit(f"error: {REAL} needs {missing}")
    try:
        asyncio.run(main(real))
    except EdenMemoryError as error:
        sys.exit(f"error: {error}")


def _missing(keys: Sequence[str], packages: Mapping[str, str]) -> str | None:
    for module, install in packages.items():
        try:
            importlib.import_module(module)
        except ImportError:
            return f"the {module} package: {install}"
    if keys and not any(os.environ.get(key) for key in keys):
        return " or ".join(keys) + " set"
    return None
