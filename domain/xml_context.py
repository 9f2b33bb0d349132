"""The memory context injected into every prompt, as XML no stored text can break.

Layout (parts that are inactive or empty are left out; nothing at all gives ``""``)::

    <MemoryContext>
    <AgentMemory>
    <Consolidated version="3">blob, exactly as stored</Consolidated>
    <RecentReflections>
    - one reflection per line
    </RecentReflections>
    </AgentMemory>
    <UserMemory>…</UserMemory>
    <SessionMemory>…</SessionMemory>
    <Facts>
    - [user] Alice's email is alice@example.com (1h ago)
    </Facts>
    </MemoryContext>

Every text is escaped (``&``, ``<``, ``>`` and carriage returns, which a parser would
otherwise turn into line feeds), so a memory reads back exactly and cannot forge a tag.
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

SECTION_TAGS = {
    Scope.AGENT: "AgentMemory",
    Scope.USER: "UserMemory",
    Scope.SESSION: "SessionMemory",
}
_ORDER = (Scope.AGENT, Scope.USER, Scope.SESSION)
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})


def escape(text: str) -> str:
    return text.translate(_ESCAPES)


@dataclass(frozen=True)
class ScopeMemory:
    """What one active scope contributes: its blob and its not yet absorbed reflections."""

    scope: Scope
    consolidated: ConsolidatedMemory | None
    recent: Sequence[Reflection]


def fact_line(fact: Fact, now: datetime) -> str:
    return f"- [{fact.scope.value}] {escape(fact.content)} ({age_label(fact.formed_at, now)})"


def _section(part: ScopeMemory) -> list[str]:
    inner: list[str] = []
    blob = part.consolidated
    if blob is not None and blob.content:
        inner.append(
            f'<Consolidated version="{blob.version}">{escape(blob.content)}</Consolidated>'
        )
    if part.recent:
        inner.append("<RecentReflections>")
        inner.extend(f"- {escape(r.content)}" for r in part.recent)
        inner.append("</RecentReflections>")
    if not inner:
        return []
    tag = SECTION_TAGS[part.scope]
    return [f"<{tag}>", *inner, f"</{tag}>"]


def render_memory_context(
    sections: Sequence[ScopeMemory], facts: Sequence[Fact], now: datetime
) -> str:
    """The ``<MemoryContext>`` document: scopes broadest first, then the FIFO facts."""
    by_scope = {s.scope: s for s in sections}
    lines: list[str] = []
    for scope in _ORDER:
        if scope in by_scope:
            lines.extend(_section(by_scope[scope]))
    if facts:
        lines.append("<Facts>")
        lines.extend(fact_line(f, now) for f in facts)
        lines.append("</Facts>")
    if not lines:
        return ""
    return "\n".join(["<MemoryContext>", *lines, "</MemoryContext>"])
