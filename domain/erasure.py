"""Erasure by origin: what becomes of shared memory when one of its sources is erased.

A user's own scope goes whole. Shared records (agent facts and notes, group sessions' notes,
blobs) are judged by provenance: a record whose every text was the user's words goes; one
with other sources stays, without the user's words (history entries, a current text of
theirs replaced by the newest one that was not) and without their id. A record older than
provenance (no users recorded) counts as the user's when it came from one of their own
sessions (``gone``), and as another's otherwise: what the library cannot attribute, it
does not destroy.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from eden_memory.domain.ids import SessionId, UserId
from eden_memory.domain.models import ConsolidatedMemory, Fact, FactRevision, FactStatus, Reflection
from eden_memory.domain.models.provenance import Origin


def _theirs(origin: Origin | None, user: UserId) -> bool:
    return origin is not None and origin.only(user)


def _purged(origin: Origin | None, user: UserId, gone: Collection[SessionId]) -> Origin | None:
    return None if origin is None else origin.without(user, gone)


def _revision(r: FactRevision, user: UserId, gone: Collection[SessionId]) -> FactRevision:
    return r.evolve(
        source=_purged(r.source, user, gone), changed_by=_purged(r.changed_by, user, gone)
    )


def fact_after_erasure(
    fact: Fact, user: UserId, gone: Collection[SessionId], now: datetime
) -> Fact | None:
    """The fact once ``user`` (whose own sessions were ``gone``) is erased; None: it goes.

    Returned unchanged (the same object) when it owes nothing to the user. A text that
    changes (the current one was the user's) needs a new vector; a retirement the user's
    words caused is undone, so an injected contradiction does not outlive its author.
    """
    legacy = not fact.contributors and fact.source_session_id in gone
    involved = (
        user in fact.contributors or legacy or bool(set(fact.contributor_sessions) & set(gone))
    )
    if not involved:
        return fact
    versions = [*fact.history, None]  # None: the current text
    theirs = [_theirs(r.source, user) if r else _theirs(fact.origin, user) for r in versions]
    if legacy or all(theirs):
        return None
    kept = [
        _revision(r, user, gone) for r, t in zip(fact.history, theirs[:-1], strict=True) if not t
    ]
    changes: dict[str, object] = {}
    origin = fact.origin
    if theirs[-1]:  # the current text was theirs: the newest text that was not comes back
        restored = kept.pop()
        origin = restored.source or Origin()
        changes |= {
            "content": restored.content,
            "content_hash": "",
            "version": fact.version + 1,
            "updated_at": now,
        }
    origin = origin.without(user, gone)
    changes |= {
        "history": tuple(kept),
        "source_session_id": origin.session_id,
        "source_message_ids": origin.message_ids,
        "source_user_ids": origin.user_ids,
        "contributors": tuple(u for u in fact.contributors if u != user),
        "contributor_sessions": tuple(s for s in fact.contributor_sessions if s not in gone),
        "retired_by": _purged(fact.retired_by, user, gone),
    }
    if fact.status is FactStatus.RETIRED and _theirs(fact.retired_by, user):
        changes |= {
            "status": FactStatus.ACTIVE,
            "retired_at": None,
            "retired_reason": "",
            "superseded_by": None,
            "retired_by": None,
            "updated_at": now,
        }
    return fact.evolve(**changes)


def reflection_after_erasure(
    reflection: Reflection, user: UserId, gone: Collection[SessionId]
) -> Reflection | None:
    """The note once ``user`` is erased; None when it was theirs alone."""
    legacy = not reflection.source_user_ids and reflection.source_session_id in gone
    if legacy or reflection.source_user_ids == (user,):
        return None
    if user not in reflection.source_user_ids and reflection.source_session_id not in gone:
        return reflection
    origin = reflection.origin.without(user, gone)
    # Its earlier texts were formed from the same messages, the user's among them: they go.
    return reflection.evolve(
        source_session_id=origin.session_id,
        source_message_ids=origin.message_ids,
        source_user_ids=origin.user_ids,
        history=(),
    )


def blob_after_erasure(
    blob: ConsolidatedMemory, user: UserId, gone: Collection[SessionId]
) -> ConsolidatedMemory:
    """The blob's provenance without the user and their sessions (its text is rebuilt apart,
    from the notes that remain, when it absorbed notes that went)."""
    if user not in blob.source_user_ids and not set(blob.source_session_ids) & set(gone):
        return blob
    return blob.evolve(
        source_user_ids=tuple(u for u in blob.source_user_ids if u != user),
        source_session_ids=tuple(s for s in blob.source_session_ids if s not in gone),
    )


def emptied(blob: ConsolidatedMemory, now: datetime) -> ConsolidatedMemory:
    """A blob whose text held erased notes, emptied and flagged until a model rebuilds it.

    One version up, so a page opened before the erasure cannot save the old text back."""
    return blob.evolve(
        content="",
        version=blob.version + 1,
        updated_at=now,
        source_session_ids=(),
        source_user_ids=(),
        needs_rebuild=True,
    )
