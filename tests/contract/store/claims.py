"""Claims: of any number of workers one takes the pending messages; nothing is lost."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from eden_memory.domain.errors import ConflictError
from eden_memory.domain.scopes import ScopeKey
from tests.contract.store.world import (
    S1,
    S2,
    T0,
    TTL,
    A,
    Builder,
    StoreFixtures,
    WholeBuffers,
    WholeSessions,
    claim,
    claimed,
    messages,
    profile,
)


class ClaimContract(StoreFixtures):
    async def test_a_claim_takes_the_oldest_pending_messages_up_to_the_limit(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 5), T0)
        taken = await claim(sessions, "worker-1", limit=3)
        assert claimed(taken) == ["msg-1", "msg-2", "msg-3"]
        assert taken is not None
        assert (taken.claim_id, taken.claimed_at) == ("worker-1", T0)
        assert taken.expires_at == T0 + timedelta(seconds=TTL)

    async def test_no_claim_below_the_minimum_or_for_an_unknown_session(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 3), T0)
        assert await claim(sessions, "worker-1", min_messages=4) is None
        assert await claim(sessions, "worker-1", session=S2) is None
        taken = await claim(sessions, "worker-1", min_messages=3)
        assert claimed(taken) == ["msg-1", "msg-2", "msg-3"]

    async def test_of_sixteen_concurrent_claimers_exactly_one_wins(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 6), T0)
        claims = await asyncio.gather(*(claim(sessions, f"worker-{n}") for n in range(16)))
        winners = [c for c in claims if c is not None]
        assert len(winners) == 1
        assert claimed(winners[0]) == [f"msg-{n}" for n in range(1, 7)]

    async def test_an_unexpired_claim_keeps_others_out(self, sessions: WholeSessions) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        assert await claim(sessions, "worker-1") is not None
        assert await claim(sessions, "worker-2", at=timedelta(seconds=TTL - 1)) is None

    async def test_an_expired_claim_is_taken_over_and_its_completion_refused(
        self, sessions: WholeSessions, buffers: WholeBuffers, build: Builder
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        crashed = await claim(sessions, "worker-1")
        retry = await claim(sessions, "worker-2", at=timedelta(seconds=TTL + 1))
        assert claimed(retry) == claimed(crashed)
        late = build.reflection(ScopeKey.session(A, S1), "from the lost claim")
        assert crashed is not None
        with pytest.raises(ConflictError):
            await sessions.complete_claim(crashed, [late], T0 + timedelta(seconds=TTL + 2))
        assert await buffers.get_reflection(late.id) is None

    async def test_a_released_claim_gives_the_messages_back_at_once(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        failed = await claim(sessions, "worker-1")
        assert failed is not None
        await sessions.release_claim(failed)
        assert claimed(await claim(sessions, "worker-2")) == claimed(failed)

    async def test_completing_buffers_reflections_and_clears_what_was_formed(
        self, sessions: WholeSessions, buffers: WholeBuffers, build: Builder
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 5), T0)
        taken = await claim(sessions, "worker-1", limit=3)
        assert taken is not None
        key = ScopeKey.session(A, S1)
        formed = [build.reflection(key, "Debugging the login flow")]
        await sessions.complete_claim(taken, formed, T0 + timedelta(seconds=5))
        assert [r.id for r in await buffers.unabsorbed([key])] == [formed[0].id]
        state = await sessions.get_session(A, S1)
        assert state is not None
        assert state.pending_messages == 2
        assert state.pending_tokens == pytest.approx(9.0)
        assert claimed(await claim(sessions, "worker-2")) == ["msg-4", "msg-5"]

    async def test_messages_recorded_during_a_claim_wait_for_the_next_one(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        taken = await claim(sessions, "worker-1")
        assert taken is not None
        await sessions.record_messages(profile(), messages(5, 5), T0 + timedelta(seconds=1))
        await sessions.complete_claim(taken, [], T0 + timedelta(seconds=2))
        state = await sessions.get_session(A, S1)
        assert state is not None
        assert state.pending_messages == 1
        assert claimed(await claim(sessions, "worker-2")) == ["msg-5"]

    async def test_a_saved_plan_outlives_a_released_or_expired_claim_until_completion(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        first = await claim(sessions, "worker-1")
        assert first is not None
        assert first.plan is None
        await sessions.save_plan(first, "plan one")
        await sessions.release_claim(first)
        second = await claim(sessions, "worker-2")
        assert second is not None
        assert second.plan == "plan one"
        await sessions.save_plan(second, "plan two")  # a later plan replaces the earlier one
        third = await claim(sessions, "worker-3", at=timedelta(seconds=TTL + 1))  # expired
        assert third is not None
        assert third.plan == "plan two"
        assert (await sessions.get_session(A, S1)) is not None
        await sessions.complete_claim(third, [], T0 + timedelta(seconds=TTL + 2))
        await sessions.record_messages(profile(), messages(5, 8), T0 + timedelta(seconds=TTL + 3))
        fourth = await claim(sessions, "worker-4", at=timedelta(seconds=TTL + 4))
        assert fourth is not None
        assert fourth.plan is None

    async def test_a_lost_claim_cannot_save_a_plan(self, sessions: WholeSessions) -> None:
        await sessions.record_messages(profile(), messages(1, 4), T0)
        lost = await claim(sessions, "worker-1")
        assert lost is not None
        taker = await claim(sessions, "worker-2", at=timedelta(seconds=TTL + 1))
        assert taker is not None
        with pytest.raises(ConflictError):
            await sessions.save_plan(lost, "stale plan")
        await sessions.release_claim(taker)
        again = await claim(sessions, "worker-3", at=timedelta(seconds=TTL + 2))
        assert again is not None
        assert again.plan is None
