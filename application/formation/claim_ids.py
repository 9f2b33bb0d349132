"""Which claim id a formation asks with: a new one, or the one whose answer was lost.

A store can take a claim and lose the reply (the connection drops after the commit). The
claimant does not know that it holds the claim, and asking again with a new id would be
refused until the claim expires (``claim_ttl_seconds``, ten minutes by default): the session
would wait that long for nothing. So the id of a claim request that failed is kept, per
session, and this process's next formation of that session asks with it; the store gives a
claimant its own live claim back (``SessionStore.claim_messages``), and refuses everyone else.

A kept id is handed out once: two formations of one session in this process never share an
id, so they can never both hold the claim.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

MOST_KEPT = 10_000  # sessions whose claim reply was lost and not yet retried; oldest dropped


@dataclass
class ClaimIds:
    """The claim ids of one process's formations."""

    most: int = MOST_KEPT
    _unanswered: dict[tuple[str, str], str] = field(default_factory=dict)

    def take(self, agent_id: str, session_id: str) -> str:
        """The id to claim the session with: the one whose reply was lost, else a new one."""
        kept = self._unanswered.pop((agent_id, session_id), None)
        return kept if kept is not None else uuid.uuid4().hex

    def unanswered(self, agent_id: str, session_id: str, claim_id: str) -> None:
        """The request with ``claim_id`` failed: the store may hold that claim all the same."""
        if len(self._unanswered) >= self.most:
            del self._unanswered[next(iter(self._unanswered))]
        self._unanswered[(agent_id, session_id)] = claim_id
