"""Facts: atomic, enduring statements, found again by search."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Self

from pydantic import Field, field_validator, model_validator

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import (
    AgentId,
    FactId,
    MessageId,
    SessionId,
    UserId,
    check_id,
)
from eden_memory.domain.models.base import Record, UtcTime
from eden_memory.domain.models.provenance import Origin, Sourced, distinct
from eden_memory.domain.scopes import FACT_SCOPES, Scope, ScopeKey
from eden_memory.domain.text import check_encodable, content_hash, single_line

# Fields a fact's export leaves out while unset: an export of facts that use none of them is,
# byte for byte, what a release before them wrote, and reads (records refuse unknown fields).
OPTIONAL_FIELDS = ("supersede_key", "valid_until")


class FactStatus(StrEnum):
    ACTIVE = "active"
    # Contradicted by a newer fact: kept with its history, out of context and search.
    RETIRED = "retired"


class FactRevision(Record):
    """A content a fact had before an update."""

    version: int
    content: str
    replaced_at: UtcTime
    reason: str = ""
    # The new fact merged in by formation, if it was a merge: lets a retried formation see
    # that its merge is already done.
    merged_from: FactId | None = None
    # Whose words this content was (None: recorded before provenance was kept).
    source: Origin | None = None
    # What replaced it: the formation's session, users and messages; None for a person's
    # edit through management (or a record older than provenance).
    changed_by: Origin | None = None

    @field_validator("reason")
    @classmethod
    def _encodable_reason(cls, value: str) -> str:
        return check_encodable(value, "a revision's reason")


class Fact(Sourced, Record):
    id: FactId
    content: str
    content_hash: str = ""
    scope: Scope
    agent_id: AgentId
    user_id: UserId | None = None
    source_session_id: SessionId | None = None
    source_message_ids: tuple[MessageId, ...] = ()
    formed_at: UtcTime
    created_at: UtcTime
    updated_at: UtcTime
    version: int = Field(default=1, ge=1)
    history: tuple[FactRevision, ...] = ()
    access_count: int = Field(default=0, ge=0)
    last_accessed_at: UtcTime | None = None
    embedding_model: str
    embedding_dim: int = Field(gt=0)
    status: FactStatus = FactStatus.ACTIVE
    retired_at: UtcTime | None = None
    retired_reason: str = ""
    superseded_by: FactId | None = None
    # Provenance (see ``provenance``): the users whose messages formed the current content
    # (``source_session_id`` and ``source_message_ids`` name that session and those messages),
    # and every user and session that formed or changed the fact over its life.
    source_user_ids: tuple[UserId, ...] = ()
    contributors: tuple[UserId, ...] = ()
    contributor_sessions: tuple[SessionId, ...] = ()
    # What retired it (a formation's session, users and messages), when a formation did.
    retired_by: Origin | None = None
    # The host's name for what the fact is about ("user.home_city"): a newer fact of the same
    # scope key with the same key supersedes it (``domain.supersession``).
    supersede_key: str | None = None
    # When it stops being true: past it the fact leaves the context and search, and stays
    # listed (``expired``).
    valid_until: UtcTime | None = None

    @field_validator("content")
    @classmethod
    def _one_line(cls, value: str) -> str:
        return single_line(value, what="fact")

    @field_validator("retired_reason")
    @classmethod
    def _encodable_reason(cls, value: str) -> str:
        return check_encodable(value, "a retirement's reason")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        check_id(self.id, "fact id")
        self._check_sources()
        if self.superseded_by is not None:
            check_id(self.superseded_by, "superseded_by")
        if self.supersede_key is not None:
            check_id(self.supersede_key, "supersede key")
        if self.valid_until is not None and self.valid_until <= self.formed_at:
            raise ValueError(
                f"valid_until ({self.valid_until.isoformat()}) must be after formed_at "
                f"({self.formed_at.isoformat()})"
            )
        if self.scope not in FACT_SCOPES:
            raise ValueError("facts are user- or agent-scoped, never session-scoped")
        ScopeKey(self.scope, self.agent_id, self.user_id)  # validates the owner
        expected = content_hash(self.content)
        if self.content_hash != expected:
            object.__setattr__(self, "content_hash", expected)
        for user in self.contributors:
            check_id(user, "provenance user id")
        for session in self.contributor_sessions:
            check_id(session, "provenance session id")
        # The life-long lists always hold the current content's source.
        current = () if self.source_session_id is None else (self.source_session_id,)
        object.__setattr__(
            self, "contributors", distinct((*self.contributors, *self.source_user_ids))
        )
        object.__setattr__(
            self, "contributor_sessions", distinct((*self.contributor_sessions, *current))
        )
        return self

    @property
    def key(self) -> ScopeKey:
        return ScopeKey(self.scope, self.agent_id, self.user_id)

    @property
    def embedding_space(self) -> EmbeddingSpace:
        """The space of the fact's vector, as its ``embedding_model``/``embedding_dim`` say."""
        return EmbeddingSpace(self.embedding_model, self.embedding_dim)

    @property
    def is_active(self) -> bool:
        return self.status is FactStatus.ACTIVE

    def exported(self) -> dict[str, object]:
        """The fact as an export line holds it (JSON types; unset ``OPTIONAL_FIELDS`` left out)."""
        unset = {name for name in OPTIONAL_FIELDS if getattr(self, name) is None}
        return self.model_dump(mode="json", exclude=unset)

    def expired(self, now: datetime) -> bool:
        """Past its ``valid_until``: out of context and search, still listed."""
        return self.valid_until is not None and self.valid_until <= now

    def status_label(self, now: datetime) -> str:
        """What listings show: ``active``, ``expired`` (active, past its valid_until) or
        ``retired``."""
        return "expired" if self.is_active and self.expired(now) else self.status.value

    def revised(
        self,
        content: str,
        now: datetime,
        reason: str = "",
        merged_from: FactId | None = None,
        *,
        space: EmbeddingSpace,
        by: Origin | None = None,
    ) -> Fact:
        """The fact with new content, embedded in ``space``; the old content goes to its history.

        ``space`` is that of the embedder that made the new content's vector, which may not be
        the one that embedded the old content (a fact that a re-embedding has not reached yet).
        ``by``: the formation's session, users and messages whose words the new content is;
        None for a person's edit (the new content is then nobody's words but the editor's).
        """
        old = FactRevision(
            version=self.version,
            content=self.content,
            replaced_at=now,
            reason=reason,
            merged_from=merged_from,
            source=self.origin,
            changed_by=by,
        )
        new = by or Origin()
        return self.evolve(
            content=content,
            source_session_id=new.session_id,
            source_message_ids=new.message_ids,
            source_user_ids=new.user_ids,
            contributors=(*self.contributors, *new.user_ids),
            contributor_sessions=self.contributor_sessions,
            content_hash="",
            version=self.version + 1,
            history=(*self.history, old),
            updated_at=now,
            embedding_model=space.model,
            embedding_dim=space.dimension,
        )

    def merged(self, version: int, new_fact: FactId) -> bool:
        """Whether the update from ``version`` merged ``new_fact`` into this fact."""
        return any(r.version == version and r.merged_from == new_fact for r in self.history)

    def retired(
        self,
        now: datetime,
        reason: str,
        superseded_by: FactId | None,
        by: Origin | None = None,
    ) -> Fact:
        """Out of context and search, kept with its history; ``by``: the formation's origin."""
        changers = () if by is None else by.user_ids
        sessions = () if by is None or by.session_id is None else (by.session_id,)
        return self.evolve(
            status=FactStatus.RETIRED,
            retired_at=now,
            retired_reason=reason,
            superseded_by=superseded_by,
            updated_at=now,
            retired_by=by,
            contributors=(*self.contributors, *changers),
            contributor_sessions=(*self.contributor_sessions, *sessions),
        )
