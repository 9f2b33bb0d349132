"""Consolidation policy: when a scope's buffer is merged, what it absorbs, what the result is."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from eden_memory.domain.errors import InvalidMemoryTextError
from eden_memory.domain.ids import ReflectionId
from eden_memory.domain.models.consolidated import ConsolidatedMemory
from eden_memory.domain.models.reflections import Reflection
from eden_memory.domain.scopes import ScopeKey
from eden_memory.domain.settings import ConsolidationSettings
from eden_memory.domain.text import blob_text, truncate_words, word_count


def consolidation_due(
    buffered: int, key: ScopeKey, settings: ConsolidationSettings, force: bool = False
) -> bool:
    """The buffer reached its scope's threshold, or a forced run has anything to absorb."""
    if force:
        return buffered > 0
    return buffered >= settings.thresholds.of(key.scope)


@dataclass(frozen=True)
class ConsolidationPlan:
    """One consolidation to run: merge ``reflections`` into ``current`` and absorb exactly them."""

    current: ConsolidatedMemory
    reflections: tuple[Reflection, ...]

    @property
    def key(self) -> ScopeKey:
        return self.current.key

    @property
    def expected_version(self) -> int:
        return self.current.version

    @property
    def absorbed_ids(self) -> tuple[ReflectionId, ...]:
        return tuple(r.id for r in self.reflections)

    @property
    def word_limit(self) -> int:
        return self.current.word_limit

    @property
    def carried(self) -> tuple[str, ...]:
        """The stored texts the prompt shows: the current blob and the notes it absorbs."""
        return (self.current.content, *(r.content for r in self.reflections))


def plan_consolidation(
    key: ScopeKey,
    current: ConsolidatedMemory | None,
    buffer: Sequence[Reflection],
    settings: ConsolidationSettings,
    force: bool = False,
) -> ConsolidationPlan | None:
    """A plan over this key's unabsorbed reflections, oldest first, or None when not due."""
    pending = sorted(
        (r for r in buffer if r.key == key and not r.absorbed),
        key=lambda r: (r.formed_at, r.created_at, r.id),
    )
    if not consolidation_due(len(pending), key, settings, force):
        return None
    limit = settings.word_limits.of(key.scope)
    base = current if current is not None else ConsolidatedMemory.empty(key, limit)
    if base.key != key:
        raise ValueError("the consolidated memory belongs to another scope key")
    return ConsolidationPlan(base.evolve(word_limit=limit), tuple(pending))


@dataclass(frozen=True)
class ConsolidationResult:
    memory: ConsolidatedMemory
    truncated: bool


def apply_consolidation(plan: ConsolidationPlan, merged: str, now: datetime) -> ConsolidationResult:
    """The new blob: the merged text within the word limit, one version up."""
    text = blob_text(merged)
    if not text:
        raise InvalidMemoryTextError("a consolidation produced an empty memory")
    fitted = truncate_words(text, plan.word_limit)
    memory = plan.current.evolve(
        content=fitted,
        version=plan.expected_version + 1,
        last_consolidated_at=now,
        updated_at=now,
    )
    return ConsolidationResult(memory, truncated=fitted != text)


def absorb(reflections: Sequence[Reflection], version: int, now: datetime) -> list[Reflection]:
    """The reflections marked absorbed into ``version`` of their blob."""
    return [
        r.evolve(absorbed=True, absorbed_at=now, absorbed_into_version=version) for r in reflections
    ]


def replace_content(current: ConsolidatedMemory, content: str, now: datetime) -> ConsolidatedMemory:
    """A person's edit of a blob: kept exactly, refused when over the word limit."""
    text = blob_text(content)
    if word_count(text) > current.word_limit:
        raise InvalidMemoryTextError(
            f"the text has {word_count(text)} words; this blob's limit is {current.word_limit}"
        )
    return current.evolve(content=text, version=current.version + 1, updated_at=now)
