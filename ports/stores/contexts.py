"""Rendered contexts kept with their sessions, so every worker serves what one built."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from eden_memory.domain.ids import AgentId
from eden_memory.domain.scopes import ActiveScopes


@dataclass(frozen=True)
class StoredContext:
    """A rendered context and what decides whether it is still true: when it was built, the
    revisions of its scope keys (in the order of ``ActiveScopes.keys()``) read before it was
    built, and when the first fact it shows expires."""

    xml: str
    built_at: datetime
    facts: int
    revisions: tuple[int, ...]
    until: datetime | None = None


def context_variant(scopes: ActiveScopes, recipe: str = "") -> str:
    """Which of a session's contexts: one per user, set of active scopes (a group session's
    members share theirs) and ``recipe`` (what else shaped the XML: settings, the user's
    name), kept as a digest so that no name or instruction is stored with it. Unambiguous
    whatever the ids hold."""
    made = hashlib.sha256(recipe.encode()).hexdigest()[:32] if recipe else ""
    return json.dumps([scopes.user_id, sorted(scopes.scopes), made])


class ContextStore(Protocol):
    """The context cache's shared level. An adapter keeps one context per session and
    variant, replaces it on save, and never serves one of another session, user or set of
    scopes; it checks the revisions of the ``RevisionStore`` of the same ``Stores`` when
    saving, and leaves freshness on reading to the caller (contract: ``contexts``)."""

    async def load_context(self, scopes: ActiveScopes, recipe: str = "") -> StoredContext | None:
        """The context last saved for these scopes and recipe, whatever its age; None when
        none is."""
        ...

    async def save_context(
        self, scopes: ActiveScopes, context: StoredContext, stale_before: datetime, recipe: str = ""
    ) -> None:
        """Keep ``context`` for these scopes and recipe, replacing the one held, unless the
        revisions of their keys moved since it was read (it could never be served, and after
        an erasure it would keep removed text). The agent's contexts built before ``stale_before``
        (past any TTL) are dropped, so the store keeps only what is hot (the in-memory
        store drops them in the order they were saved)."""
        ...

    async def drop_contexts(self, agent_id: AgentId) -> int:
        """Erasure: remove every context of the agent (they quote its memory); returns
        how many."""
        ...
