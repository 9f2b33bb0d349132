"""The memory context injected into every prompt, as XML no stored text can break.

Layout (parts that are inactive or empty are left out; nothing at all gives ``""``)::

    <MemoryContext>
    <AgentMemory>
    <MemoryInstructions>what the agent's owner wants kept</MemoryInstructions>
    <Consolidated version="3" updated="2d ago">blob, exactly as stored</Consolidated>
    <RecentReflections>
    - one reflection per line
    </RecentReflections>
    </AgentMemory>
    <UserMemory name="Alice">…</UserMemory>
    <SessionMemory>…</SessionMemory>
    <Facts>
    - [user] Alice's email is alice@example.com (1h ago)
    </Facts>
    </MemoryContext>

As seed 004's context did, the user's memory carries the user's name (when the host gave
it), each blob its age, and the agent's memory the instructions it is kept by (only beside
memory: instructions alone are not a memory). Every text is escaped (``&``, ``<``, ``>`` and
carriage returns, which a parser would otherwise turn into line feeds; in an attribute also
quotes, line feeds and tabs), so a memory reads back exactly and cannot forge a tag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from eden_memory.domain.ages import age_label
from eden_memory.domain.models.consolidated import ConsolidatedMemory
from eden_memory.domain.models.facts import Fact
from eden_memory.domain.models.reflections import Reflection
from eden_memory.domain.scopes import Scope
from eden_memory.domain.text import xml_safe

SECTION_TAGS = {
    Scope.AGENT: "AgentMemory",
    Scope.USER: "UserMemory",
    Scope.SESSION: "SessionMemory",
}
_ORDER = (Scope.AGENT, Scope.USER, Scope.SESSION)
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})


_ATTRIBUTE_ESCAPES = str.maketrans({'"': "&quot;", "\n": "&#10;", "\t": "&#9;"})


def escape(text: str) -> str:
    return text.translate(_ESCAPES)


def escape_attribute(text: str) -> str:
    """An attribute value: a parser would end it at a quote and turn a line feed or a tab
    into a space."""
    return escape(text).translate(_ATTRIBUTE_ESCAPES)


@dataclass(frozen=True)
class ScopeMemory:
    """What one active scope contributes: its blob and its not yet absorbed reflections,
    with the name of whose memory it is (user scope) and the instructions it is kept by
    (agent scope), when known."""

    scope: Scope
    consolidated: ConsolidatedMemory | None
    recent: Sequence[Reflection]
    name: str | None = None
    instructions: str = ""


def fact_line(fact: Fact, now: datetime) -> str:
    return f"- [{fact.scope.value}] {escape(fact.content)} ({age_label(fact.formed_at, now)})"


def _consolidated(blob: ConsolidatedMemory, now: datetime) -> str:
    changed = blob.updated_at or blob.last_consolidated_at
    age = f' updated="{age_label(changed, now)}"' if changed is not None else ""
    return f'<Consolidated version="{blob.version}"{age}>{escape(blob.content)}</Consolidated>'


def _section(part: ScopeMemory, now: datetime) -> list[str]:
    inner: list[str] = []
    blob = part.consolidated
    if blob is not None and blob.content:
        inner.append(_consolidated(blob, now))
    if part.recent:
        inner.append("<RecentReflections>")
        inner.extend(f"- {escape(r.content)}" for r in part.recent)
        inner.append("</RecentReflections>")
    if not inner:
        return []
    # Host text, not memory: what XML cannot carry is dropped rather than refused.
    instructions = xml_safe(part.instructions).strip()
    if instructions:
        inner.insert(0, f"<MemoryInstructions>{escape(instructions)}</MemoryInstructions>")
    tag = SECTION_TAGS[part.scope]
    name = xml_safe(part.name or "")
    name = f' name="{escape_attribute(name)}"' if name else ""
    return [f"<{tag}{name}>", *inner, f"</{tag}>"]


def render_memory_context(
    sections: Sequence[ScopeMemory], facts: Sequence[Fact], now: datetime
) -> str:
    """The ``<MemoryContext>`` document: scopes broadest first, then the FIFO facts."""
    by_scope = {s.scope: s for s in sections}
    lines: list[str] = []
    for scope in _ORDER:
        if scope in by_scope:
            lines.extend(_section(by_scope[scope], now))
    if facts:
        lines.append("<Facts>")
        lines.extend(fact_line(f, now) for f in facts)
        lines.append("</Facts>")
    if not lines:
        return ""
    return "\n".join(["<MemoryContext>", *lines, "</MemoryContext>"])
