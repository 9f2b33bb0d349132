"""A deterministic stand-in for the model that "reads" conversations through lookup tables.

It parses the prompts the application really sends, so tests exercise the prompts' content
and the whole pipeline, and it answers the same way every time (retries see the same answer).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from hashlib import sha1
from typing import Any

from pydantic import BaseModel

from eden_memory.application.service import MemoryService
from eden_memory.domain.models import Message, Role
from eden_memory.domain.settings import MemorySettings
from eden_memory.ports.llm import LLMRequest
from eden_memory.testing import FakeClock, InMemoryStore, KeywordEmbedder, ScriptedLLM

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_LINE = re.compile(r"^\[(\d+)\] \d{4}-\d\d-\d\d \d\d:\d\d \w+(?: \([^)]*\))?: (.*)$", re.M)
_NEW = re.compile(r"^New fact (\d+) \(scope (\w+)\): (.*)$", re.M)
_CANDIDATE = re.compile(r'^  - id="([^"]+)" scope=(\w+) similarity=[\d.]+: (.*)$', re.M)


@dataclass
class Story:
    """What the model 'finds' in each message, and how it judges duplicates."""

    facts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    notes: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # new fact content -> (action, target content, text)
    dedup: dict[str, tuple[str, str | None, str | None]] = field(default_factory=dict)
    yield_control: bool = True

    async def __call__(self, request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
        if self.yield_control:
            await asyncio.sleep(0)  # let concurrent callers interleave, as a real call would
        handler = {
            "fact_extraction": self._facts,
            "dedup": self._dedup,
            "reflection_extraction": self._notes,
            "consolidation": self._consolidate,
        }[request.purpose]
        return handler(request.prompt)

    def _facts(self, prompt: str) -> dict[str, Any]:
        found = []
        for number, text in _conversation(prompt):
            for content, scope in self.facts.get(text, []):
                found.append({"content": content, "scope": scope, "source_messages": [number]})
        return {"facts": found}

    def _dedup(self, prompt: str) -> dict[str, Any]:
        decisions = []
        for block in prompt.split("\n\n"):
            new = _NEW.search(block)
            if new is None:
                continue
            index, content = int(new.group(1)), new.group(3)
            shown = {c: i for i, _, c in _CANDIDATE.findall(block)}
            action, target, text = self.dedup.get(content, ("ADD", None, None))
            if text is not None and text in shown:  # the merged text is already stored
                action, target = "NONE", text
            target_id = shown.get(target) if target else None
            if action != "ADD" and target_id is None:
                action = "ADD"
            decisions.append(
                {"fact": index, "action": action, "target_id": target_id, "text": text}
            )
        return {"decisions": decisions}

    def _notes(self, prompt: str) -> dict[str, Any]:
        out: dict[str, list[str]] = {"agent": [], "user": [], "session": []}
        for _, text in _conversation(prompt):
            for scope, note in self.notes.get(text, []):
                out[scope].append(note)
        return out

    def _consolidate(self, prompt: str) -> dict[str, Any]:
        current = _between(prompt, "<current_memory", "</current_memory>")
        current_lines = [
            line for line in current.split("\n")[1:] if line.strip() and not line.startswith("(")
        ]
        notes = [
            line for line in _between(prompt, "<new_notes>", "</new_notes>").split("\n") if line
        ]
        merged = list(dict.fromkeys([*current_lines, *notes]))
        return {"content": "\n".join(merged)}


def _conversation(prompt: str) -> list[tuple[int, str]]:
    block = _between(prompt, "<conversation>", "</conversation>")
    return [(int(n), text) for n, text in _LINE.findall(block)]


def _between(text: str, start: str, end: str) -> str:
    head = text.index(start)
    return text[text.index("\n", head) + 1 : text.index(end, head)].strip("\n")


@dataclass
class World:
    memory: MemoryService
    store: InMemoryStore
    llm: ScriptedLLM
    embedder: KeywordEmbedder
    clock: FakeClock

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
    store: InMemoryStore | None = None,
    llm: Any = None,
) -> World:
    clock = FakeClock(START)
    the_store = store or InMemoryStore()
    scripted = ScriptedLLM(story or Story())
    embedder = KeywordEmbedder()
    memory = MemoryService(the_store, embedder, llm or scripted, clock, settings)
    return World(memory, the_store, scripted, embedder, clock)


def purposes(requests: Sequence[LLMRequest]) -> Mapping[str, int]:
    counts: dict[str, int] = {}
    for r in requests:
        counts[r.purpose] = counts.get(r.purpose, 0) + 1
    return counts
