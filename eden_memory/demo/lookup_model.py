"""An offline model that "reads" conversations through lookup tables.

It parses the prompts eden-memory really sends and answers deterministically: facts and
notes found in known messages, dedup judgements by rule, consolidation by merging lines.
The demo uses it when no provider is configured (and says so); the test suite uses it to run
the whole pipeline offline. It is a script, not a model: unknown messages yield nothing.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from eden_memory.ports.llm import LLMRequest

_LINE = re.compile(r"^\[(\d+)\] \w{3} \d{4}-\d\d-\d\d \d\d:\d\d \w+(?: \([^)]*\))?: (.*)$", re.M)
_NEW = re.compile(r"^New fact (\d+) \(scope (\w+)\): (.*)$", re.M)
_CANDIDATE = re.compile(r'^  stored id="([^"]+)" scope=(\w+) similarity=[\d.]+: (.*)$', re.M)


@dataclass
class LookupModel:
    """What the model finds in each message, and how it judges duplicates.

    ``facts``: message text → [(fact, scope)]; ``notes``: message text → [(scope, note)];
    ``dedup``: new fact → (action, target fact text, final text); ``replaces``: a note → the
    older note a consolidation should drop for it (newer information wins).
    """

    facts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    notes: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    dedup: dict[str, tuple[str, str | None, str | None]] = field(default_factory=dict)
    replaces: dict[str, str] = field(default_factory=dict)
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
        head, _, rest = prompt.partition("oldest first:\n")
        _, found, current = head.partition("Current text:\n")  # after any instructions
        current = current.removesuffix("\n\nNew notes, ") if found else ""
        kept = [line for line in current.split("\n") if line.strip()]
        notes = [line for line in rest.split("\n\n")[0].split("\n") if line]
        stale = {f"- {self.replaces[n[2:]]}" for n in notes if n[2:] in self.replaces}
        merged = [line for line in dict.fromkeys([*kept, *notes]) if line not in stale]
        return {"content": "\n".join(merged)}


def _conversation(prompt: str) -> list[tuple[int, str]]:
    block = _between(prompt, "<conversation>", "</conversation>")
    return [(int(n), _unescape(text)) for n, text in _LINE.findall(block)]


def _unescape(text: str) -> str:
    return (
        text.replace("&lt;", "<").replace("&gt;", ">").replace("&#13;", "\r").replace("&amp;", "&")
    )


def _between(text: str, start: str, end: str) -> str:
    head = text.index(start)
    return text[text.index("\n", head) + 1 : text.index(end, head)].strip("\n")
