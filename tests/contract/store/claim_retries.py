"""A claimant's retry: the same claim id takes back its own live claim; any other is refused.

A claim whose reply was lost (the store took it, the answer never arrived) would otherwise
block the session for the claim's whole lifetime: the claimant, not knowing it holds the
claim, asks again and is refused like a stranger.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from eden_memory.domain.errors import StoreUnavailableError
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.models import Claim
from tests.contract.store.world import (
    S1,
    T0,
    TTL,
    A,
    StoreFixtures,
    WholeSessions,
    claim,
    claimed,
    messages,
    profile,
)


class LostReply:
    """The store's ``claim_messages``, whose answer is lost after the store has taken it."""

    def __init__(self, sessions: WholeSessions) -> None:
        self.sessions = sessions

    async def claim_messages(
        self,
        agent_id: AgentId,
        session_id: SessionId,
        claim_id: str,
        now: datetime,
        ttl_seconds: float,
        min_messages: int,
        limit: int,
    ) -> Claim | None:
        await self.sessions.claim_messages(
            agent_id, session_id, claim_id, now, ttl_seconds, min_messages, limit
        )
        raise StoreUnavailableError("the connection dropped before the reply")


class ClaimRetryContract(StoreFixtures):
    async def test_the_claimant_asking_again_gets_its_live_claim_back(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        first = await claim(sessions, "worker-1", limit=3)
        again = await claim(sessions, "worker-1", at=timedelta(seconds=5), limit=3)
        assert again is not None
        assert claimed(again) == claimed(first) == ["msg-1", "msg-2", "msg-3"]
        assert again.claim_id == "worker-1"
        assert again.expires_at == T0 + timedelta(seconds=5 + TTL)  # renewed from the retry
        assert await claim(sessions, "worker-2", at=timedelta(seconds=TTL + 1)) is None

    async def test_a_lost_reply_is_recovered_by_the_claimants_retry(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        with pytest.raises(StoreUnavailableError):
            await LostReply(sessions).claim_messages(A, S1, "worker-1", T0, TTL, 1, 100)
        assert await claim(sessions, "worker-2", at=timedelta(seconds=1)) is None
        retry = await claim(sessions, "worker-1", at=timedelta(seconds=1))
        assert claimed(retry) == ["msg-1", "msg-2", "msg-3", "msg-4"]
        assert retry is not None
        await sessions.complete_claim(retry, [], T0 + timedelta(seconds=2))
        state = await sessions.get_session(A, S1)
        assert state is not None
        assert state.pending_messages == 0

    async def test_a_claim_taken_over_is_not_given_back_to_its_first_claimant(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        assert await claim(sessions, "worker-1") is not None
        taker = await claim(sessions, "worker-2", at=timedelta(seconds=TTL + 1))
        assert taker is not None
        assert await claim(sessions, "worker-1", at=timedelta(seconds=TTL + 2)) is None
        await sessions.complete_claim(taker, [], T0 + timedelta(seconds=TTL + 3))

    async def test_a_completed_claim_is_not_taken_again_by_its_claimant(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        done = await claim(sessions, "worker-1")
        assert done is not None
        await sessions.complete_claim(done, [], T0 + timedelta(seconds=1))
        assert await claim(sessions, "worker-1", at=timedelta(seconds=2)) is None
