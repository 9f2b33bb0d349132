"""What the examples share: a memory that already knows one fact about Alice, offline."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from eden_memory import AgentMemoryConfig, MemoryService, new_message, open_memory
from eden_memory.demo.lookup_model import LookupModel
from eden_memory.testing import KeywordEmbedder, ScriptedLLM, memory_stores

AGENT = AgentMemoryConfig("support-bot")
# The offline "model" that forms memories: it knows what to extract from these messages.
MODEL = LookupModel(
    facts={"My email is alice@example.com.": [("Alice's email is alice@example.com", "user")]},
    notes={"Please keep answers short.": [("user", "Alice wants short answers")]},
)


@asynccontextmanager
async def remembering_memory() -> AsyncIterator[MemoryService]:
    """An in-memory service where an earlier session taught the agent Alice's email."""
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
