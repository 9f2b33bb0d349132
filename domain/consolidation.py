"""Consolidation policy: when a scope's buffer is merged, what it absorbs, what the result is."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
    # A rebuild (the blob lost notes to an erasure): the notes it had absorbed and keeps,
    # merged again from an empty text together with ``reflections``.
    rebuilt_from: tuple[Reflection, ...] = ()

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
    def carried_notes(self) -> tuple[Reflection, ...]:
        """Every note the prompt shows: the kept ones of a rebuild, then the new ones."""
        return (*self.rebuilt_from, *self.reflections)

    @property
    def carried(self) -> tuple[str, ...]:
        """The stored texts the prompt shows: the current blob and the notes it absorbs."""
        return (self.current.content, *(r.content for r in self.carried_notes))


def plan_consolidation(
    key: ScopeKey,
    current: ConsolidatedMemory | None,
    buffer: Sequence[Reflection],
    settings: ConsolidationSettings,
    force: bool = False,
    absorbed: Sequence[Reflection] = (),
) -> ConsolidationPlan | None:
    """A plan over this key's unabsorbed reflections, oldest first, or None when not due.

    A blob flagged ``needs_rebuild`` is always due: it is merged again from an empty text,
    from ``absorbed`` (the notes it had absorbed that an erasure kept) and the buffer.
    """
    pending = _oldest_first(r for r in buffer if r.key == key and not r.absorbed)
    rebuild = current is not None and current.needs_rebuild
    if not rebuild and not consolidation_due(len(pending), key, settings, force):
        return None
    limit = settings.word_limits.of(key.scope)
    base = current if current is not None else ConsolidatedMemory.empty(key, limit)
    if base.key != key:
        raise ValueError("the consolidated memory belongs to another scope key")
    if not rebuild:
        return ConsolidationPlan(base.evolve(word_limit=limit), pending)
    kept = _oldest_first(r for r in absorbed if r.key == key and r.absorbed)
    if not kept and not pending:  # nothing left to rebuild from: the empty text is the blob
        return None
    blank = base.evolve(word_limit=limit, content="", source_session_ids=(), source_user_ids=())
    return ConsolidationPlan(blank, pending, kept)


def _oldest_first(reflections: Iterable[Reflection]) -> tuple[Reflection, ...]:
    return tuple(sorted(reflections, key=lambda r: (r.formed_at, r.created_at, r.id)))


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
        source_session_ids=(
            *plan.current.source_session_ids,
            *(r.source_session_id for r in plan.carried_notes if r.source_session_id),
        ),
        source_user_ids=(
            *plan.current.source_user_ids,
            *(u for r in plan.carried_notes for u in r.source_user_ids),
        ),
        needs_rebuild=False,
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
    return current.evolve(
        content=text, version=current.version + 1, updated_at=now, needs_rebuild=False
    )
