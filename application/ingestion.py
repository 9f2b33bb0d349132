"""Direct fact ingestion: facts a host already has, stored with no LLM involved.

Each item names its content, scope, agent (and user, for user scope) and the time it was
said. Items are validated one by one (a bad item is rejected with its reason, never the whole
call), exact duplicates are dropped by content hash (within the call and against the active
facts already stored), and the rest are embedded ``batch_size`` at a time, one embedder call
per batch.

Limits: a host's fact is one line of at most ``MAX_LINE_CHARS`` characters, like every
stored fact. The 30-word limit of extraction is *not* applied: it is an instruction to the
extraction model, and a host's own records may legitimately be longer. ``max_words`` sets a
word limit when a host wants one.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from eden_memory.application.calls import embed
from eden_memory.application.reports import Usage
from eden_memory.application.spaces import require_space
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, FactId, MessageId, SessionId, UserId
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.text import single_line
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore

DEFAULT_BATCH_SIZE = 256
MAX_BATCH_SIZE = 2048


class FactInput(BaseModel):
    """One fact as a host gives it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    content: str
    scope: Scope = Scope.USER
    agent_id: str
    user_id: str | None = None
    formed_at: datetime
    source_session_id: str | None = None
    source_message_ids: tuple[str, ...] = ()
    id: str | None = Field(default=None, description="The host's id (default: a new one).")


@dataclass(frozen=True)
class Rejected:
    index: int  # position of the item in the input, from 0
    reason: str


@dataclass
class IngestReport:
    added: list[FactId] = field(default_factory=list)
    duplicates: int = 0  # exact duplicates: within the input or of an active stored fact
    rejected: list[Rejected] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)

    @property
    def embedding_calls(self) -> int:
        return self.usage.embedding_calls

    @property
    def received(self) -> int:
        return len(self.added) + self.duplicates + len(self.rejected)


def _fact(item: FactInput, now: datetime, embedder: Embedder, max_words: int | None) -> Fact:
    content = single_line(item.content, max_words=max_words, what="fact")
    space = embedder.space
    return Fact(
        id=FactId(item.id or uuid.uuid4().hex),
        content=content,
        scope=item.scope,
        agent_id=AgentId(item.agent_id),
        user_id=UserId(item.user_id) if item.user_id is not None else None,
        source_session_id=(
            SessionId(item.source_session_id) if item.source_session_id is not None else None
        ),
        source_message_ids=tuple(MessageId(m) for m in item.source_message_ids),
        formed_at=item.formed_at,
        created_at=now,
        updated_at=now,
        embedding_model=space.model,
        embedding_dim=space.dimension,
    )


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    return str(error)


async def ingest_facts(
    store: FactStore,
    embedder: Embedder,
    clock: Clock,
    items: Iterable[FactInput | Mapping[str, Any]],
    batch_size: int = DEFAULT_BATCH_SIZE,
    *,
    max_words: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> IngestReport:
    """Validate, deduplicate, embed in batches and store; returns what happened to each item.

    ``on_progress`` is told how many more items were handled after each batch written."""
    if isinstance(batch_size, bool) or not 1 <= batch_size <= MAX_BATCH_SIZE:
        raise InvalidInputError(f"batch_size must be from 1 to {MAX_BATCH_SIZE}")
    await require_space(store, embedder)  # before any embedding is paid for
    report = IngestReport()
    now = clock.now()
    pending: list[tuple[int, Fact]] = []
    seen: set[tuple[ScopeKey, str]] = set()
    ids: set[str] = set()
    handled = 0

    def tell(upto: int) -> None:
        nonlocal handled
        if on_progress is not None and upto > handled:
            on_progress(upto - handled)
        handled = upto

    index = -1
    for index, raw in enumerate(items):
        try:
            item = raw if isinstance(raw, FactInput) else FactInput.model_validate(raw)
            fact = _fact(item, now, embedder, max_words)
        except (ValidationError, InvalidInputError, TypeError) as error:
            report.rejected.append(Rejected(index, _reason(error)))
            continue
        if fact.id in ids and any(f.id == fact.id for _, f in pending):
            # The first holder of the id may be a duplicate of a stored fact, which frees it.
            ids -= await _flush(store, embedder, pending, report)
            pending = []
        if fact.id in ids:
            report.rejected.append(Rejected(index, f"fact id {fact.id} is given twice"))
            continue
        marker = (fact.key, fact.content_hash)
        if marker in seen:
            report.duplicates += 1
            continue
        seen.add(marker)
        ids.add(fact.id)
        pending.append((index, fact))
        if len(pending) >= batch_size:
            ids -= await _flush(store, embedder, pending, report)
            pending = []
            tell(index + 1)
    await _flush(store, embedder, pending, report)
    tell(index + 1)
    report.rejected.sort(key=lambda r: r.index)
    return report


async def _flush(
    store: FactStore, embedder: Embedder, pending: list[tuple[int, Fact]], report: IngestReport
) -> set[str]:
    """Write ``pending`` but for duplicates of stored facts; returns the ids of those (an id
    of a fact that was not stored may be given again)."""
    fresh = await _unknown(store, pending, report)
    await _write(store, embedder, fresh, report)
    kept = {f.id for _, f in fresh}
    return {f.id for _, f in pending if f.id not in kept}


async def _unknown(
    store: FactStore, pending: list[tuple[int, Fact]], report: IngestReport
) -> list[tuple[int, Fact]]:
    """``pending`` without exact duplicates of stored facts; only the batch's hashes are
    looked up, one call per (agent, user), so a call costs the same in any size of store."""
    owners: dict[tuple[AgentId, UserId | None], set[str]] = {}
    for _, fact in pending:
        owners.setdefault((fact.agent_id, fact.user_id), set()).add(fact.content_hash)
    known = {
        owner: await store.known_hashes(owner[0], owner[1], hashes)
        for owner, hashes in owners.items()
    }
    fresh = [
        (index, fact)
        for index, fact in pending
        if (fact.scope, fact.content_hash) not in known[(fact.agent_id, fact.user_id)]
    ]
    report.duplicates += len(pending) - len(fresh)
    return fresh


async def _write(
    store: FactStore, embedder: Embedder, pending: list[tuple[int, Fact]], report: IngestReport
) -> None:
    if not pending:
        return
    taken = {f.id for f in await store.get_facts([f.id for _, f in pending])}
    for index, fact in pending:
        if fact.id in taken:
            report.rejected.append(Rejected(index, f"fact id {fact.id} is already stored"))
    facts = [f for _, f in pending if f.id not in taken]
    if not facts:
        return
    vectors = await embed(embedder, [f.content for f in facts])
    stored = await store.add_facts(facts, vectors)
    for new, kept in zip(facts, stored, strict=True):
        if kept.id == new.id:
            report.added.append(kept.id)
        else:  # written meanwhile by someone else: the store kept the one it had
            report.duplicates += 1


__all__ = ["FactInput", "IngestReport", "Rejected", "ingest_facts"]
