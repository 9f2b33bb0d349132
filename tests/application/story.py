"""A deterministic stand-in for the model that "reads" conversations through lookup tables.

It parses the prompts the application really sends, so tests exercise the prompts' content
and the whole pipeline, and it answers the same way every time (retries see the same answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from hashlib import sha1
from typing import Any

from eden_memory.application.service import MemoryService
from eden_memory.demo.lookup_model import LookupModel
from eden_memory.domain.models import Message, Role
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.llm import LLMRequest
from eden_memory.ports.stores import Stores
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
# The offline lookup model ships with the package (the demo uses it too).
Story = LookupModel


@dataclass
class World:
    memory: MemoryService
    stores: Stores
    llm: ScriptedLLM
    embedder: KeywordEmbedder
    clock: FakeClock
    client: Any = None  # the LLM the service was given (``llm``, or the scripted one)

    def messages(self, *texts: str, author: str = "alice", start: int = 0) -> list[Message]:
        """User messages one minute apart, at the clock's time, with stable ids."""
        now = self.clock.now()
        return [
            Message(
                id="m-" + sha1(f"{text}|{author}|{now}|{start + i}".encode()).hexdigest()[:16],
                role=Role.USER,
                text=text,
                sent_at=now + timedelta(minutes=i),
                author_id=author,
            )
            for i, text in enumerate(texts)
        ]


def make_world(
    story: Story | None = None,
    settings: MemorySettings | None = None,
    stores: Stores | None = None,
    llm: Any = None,
) -> World:
    clock = FakeClock(START)
    the_stores = stores or memory_stores()
    scripted = ScriptedLLM(story or Story())
    embedder = KeywordEmbedder()
    memory = MemoryService(the_stores, embedder, llm or scripted, clock, settings)
    return World(memory, the_stores, scripted, embedder, clock, llm or scripted)


def purposes(requests: Sequence[LLMRequest]) -> Mapping[str, int]:
    counts: dict[str, int] = {}
    for r in requests:
        counts[r.purpose] = counts.get(r.purpose, 0) + 1
    return counts
