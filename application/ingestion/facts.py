"""Direct fact ingestion: facts a host already has, stored with no LLM involved.

Each item names its content, scope, agent (and user, for user scope) and the time it was
said. Items are validated one by one (a bad item is rejected with its reason, never the whole
call), exact duplicates are dropped by content hash (within the call and against the active
facts already stored), and the rest are embedded ``batch_size`` at a time, one embedder call
per batch; each batch is written while the next one is validated (``writes``).
A new fact's id is 128 random bits (hex), which is never looked up; a host's own id is.

An item may say what it replaces (``supersedes``: a fact's id; ``key``: a name of the host's
for what the fact is about, the newest fact of a key being the true one) and until when it
holds (``valid_until``); what it supersedes is retired as it is stored (``FactStore.
add_superseding``, ``domain.supersession``), and the report lists it (``superseded``).

Limits: a host's fact is one line of at most ``MAX_LINE_CHARS`` characters, like every
stored fact. The 30-word limit of extraction is *not* applied: it is an instruction to the
extraction model, and a host's own records may legitimately be longer. ``max_words`` sets a
word limit when a host wants one.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from eden_memory.application.ingestion.writes import (
    BatchWriter,
    IngestReport,
    Pending,
    Rejected,
)
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, FactId, MessageId, SessionId, UserId, check_id
from eden_memory.domain.models import Fact
from eden_memory.domain.problems import reason
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.text import single_line
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactStore

DEFAULT_BATCH_SIZE = 256
MAX_BATCH_SIZE = 2048
T = TypeVar("T")
# Validating an item takes ~0.1 ms: the event loop gets a turn every few milliseconds.
_YIELD_EVERY = 32


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
    key: str | None = Field(
        default=None,
        description="What the fact is about, named by the host ('user.home_city'): it "
        "supersedes the older active fact of its scope with the same key.",
    )
    supersedes: str | None = Field(
        default=None,
        description="The id of a fact this one replaces: stored, or given earlier in the call.",
    )
    valid_until: datetime | None = Field(
        default=None,
        description="When the fact stops being true: after it, it leaves the context and "
        "search, and stays listed.",
    )


def build_fact(
    item: FactInput, content: str, now: datetime, space: EmbeddingSpace, new_id: Callable[[], str]
) -> Fact:
    """The fact of a validated item; ``content``: the item's, cleaned by ``single_line``.

    Built through ``Fact``'s validation: measured, it costs ~43 us a fact, nearly all of it
    the domain's own checks (the hash ~11 us, the text, the ids and owner), which a
    ``model_construct`` would have to repeat (46 us with them): nothing to gain there."""
    return Fact(
        id=FactId(item.id or new_id()),
        content=content,
        scope=item.scope,
        agent_id=AgentId(item.agent_id),
        user_id=_optional(UserId, item.user_id),
        source_session_id=_optional(SessionId, item.source_session_id),
        source_message_ids=tuple(MessageId(m) for m in item.source_message_ids),
        formed_at=item.formed_at,
        created_at=now,
        updated_at=now,
        embedding_model=space.model,
        embedding_dim=space.dimension,
        supersede_key=item.key,
        valid_until=item.valid_until,
    )


def _optional(kind: Callable[[str], T], value: str | None) -> T | None:
    return None if value is None else kind(value)


class RandomIds:
    """New fact ids: 128 random bits as hex, drawn from the system 512 at a time (a system
    call per id was ~3% of an ingestion, profiled)."""

    def __init__(self) -> None:
        self._pool = b""

    def __call__(self) -> str:
        if not self._pool:
            self._pool = os.urandom(16 * 512)
        drawn, self._pool = self._pool[:16], self._pool[16:]
        return drawn.hex()


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

    ``on_progress`` is told how many more items were handled after each batch written. The
    store's embedding space is checked before anything is embedded (with the first batch's
    look-ups), and refused even when nothing is left to write."""
    if isinstance(batch_size, bool) or not 1 <= batch_size <= MAX_BATCH_SIZE:
        raise InvalidInputError(f"batch_size must be from 1 to {MAX_BATCH_SIZE}")
    report = IngestReport()
    now = clock.now()
    writer = BatchWriter(store, embedder, report, now)
    progress = _Progress(on_progress)
    try:
        last = await _validate_and_send(
            items, _Maker(now, embedder, max_words), writer, report, batch_size, progress
        )
        await writer.finish()
    except BaseException:
        writer.abandon()
        raise
    progress.tell(last + 1)
    report.rejected.sort(key=lambda r: r.index)
    return report


class _Maker:
    """Validates items into facts: one pydantic validation each (``FactInput``)."""

    def __init__(self, now: datetime, embedder: Embedder, max_words: int | None) -> None:
        self._now = now
        self._space = embedder.space
        self._max_words = max_words
        self._ids = RandomIds()

    def pending(self, index: int, raw: FactInput | Mapping[str, Any]) -> Pending:
        item = raw if isinstance(raw, FactInput) else FactInput.model_validate(raw)
        content = single_line(item.content, max_words=self._max_words, what="fact")
        fact = build_fact(item, content, self._now, self._space, self._ids)
        supersedes = None
        if item.supersedes is not None:
            supersedes = FactId(check_id(item.supersedes, "supersedes"))
        return Pending(index, fact, named=bool(item.id), supersedes=supersedes)


async def _validate_and_send(
    items: Iterable[FactInput | Mapping[str, Any]],
    maker: _Maker,
    writer: BatchWriter,
    report: IngestReport,
    batch_size: int,
    progress: _Progress,
) -> int:
    """Validate items one by one and send them in batches; the last index seen."""
    pending: list[Pending] = []
    in_batch: set[str] = set()
    seen: set[tuple[ScopeKey, str]] = set()
    index = -1
    for index, raw in enumerate(items):
        if index and index % _YIELD_EVERY == 0:
            await asyncio.sleep(0)  # the batch in flight moves on (and the host's loop)
        try:
            item = maker.pending(index, raw)
        except (ValidationError, InvalidInputError, TypeError) as error:
            report.rejected.append(Rejected(index, reason(error)))
            continue
        fact = item.fact
        if writer.holds(fact.id):
            # The first holder of the id may be a duplicate of a stored fact, which frees it.
            if fact.id in in_batch:
                await writer.send(pending)
                pending, in_batch = [], set()
            await writer.settle()
        if writer.holds(fact.id):
            report.rejected.append(Rejected(index, f"fact id {fact.id} is given twice"))
            continue
        marker = (fact.key, fact.content_hash)
        if marker in seen:
            report.duplicates += 1
            continue
        seen.add(marker)
        writer.ids.add(fact.id)
        in_batch.add(fact.id)
        pending.append(item)
        if len(pending) >= batch_size:
            await writer.send(pending, partial(progress.tell, index + 1))
            pending, in_batch = [], set()
    if pending:
        await writer.send(pending)
    return index


class _Progress:
    """Tells ``on_progress`` how many more items were handled, never the same ones twice."""

    def __init__(self, on_progress: Callable[[int], None] | None) -> None:
        self._on_progress = on_progress
        self._handled = 0

    def tell(self, upto: int) -> None:
        if self._on_progress is not None and upto > self._handled:
            self._on_progress(upto - self._handled)
        self._handled = max(self._handled, upto)


__all__ = ["FactInput", "IngestReport", "Rejected", "ingest_facts"]
