"""SessionStore: pending messages, claims that exactly one worker wins, cold sessions."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.errors import SessionUsersError
from eden_memory.domain.ids import SessionId, UserId
from eden_memory.domain.models import Role
from eden_memory.domain.participants import check_reader
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage
from tests.contract.store.world import (
    S1,
    S2,
    T0,
    U1,
    U2,
    A,
    B,
    StoreFixtures,
    WholeSessions,
    claim,
    claimed,
    message,
    messages,
    profile,
)


class SessionContract(StoreFixtures):
    async def test_recording_creates_the_session_with_its_pending_work(
        self, sessions: WholeSessions
    ) -> None:
        state = await sessions.record_messages(profile(users=(U1, U2)), messages(1, 3), T0)
        assert (state.agent_id, state.session_id, state.profile.user_ids) == (A, S1, (U1, U2))
        assert state.pending_messages == 3
        assert state.pending_tokens == pytest.approx(6.0)
        assert state.last_activity_at == T0
        assert await sessions.get_session(A, S1) == state
        assert await sessions.get_session(A, S2) is None

    async def test_a_message_id_already_recorded_is_ignored(self, sessions: WholeSessions) -> None:
        await sessions.record_messages(profile(), messages(1, 3), T0)
        state = await sessions.record_messages(profile(), messages(2, 5), T0 + timedelta(minutes=1))
        assert state.pending_messages == 5
        assert state.pending_tokens == pytest.approx(15.0)
        assert state.last_activity_at == T0 + timedelta(minutes=1)

    async def test_every_turn_refreshes_the_profile(self, sessions: WholeSessions) -> None:
        await sessions.record_messages(profile(users=(U1,)), messages(1, 1), T0)
        changed = SessionProfile(
            agent_id=A,
            session_id=S1,
            user_ids=(U1, U2),
            user_memory_enabled=False,
            agent_memory_enabled=True,
            memory_instructions="Remember birthdays.",
            premium=True,
        )
        state = await sessions.record_messages(changed, messages(2, 2), T0)
        assert state.profile.user_ids == (U1, U2)
        assert not state.profile.user_memory_enabled
        assert (state.profile.memory_instructions, state.profile.premium) == (
            "Remember birthdays.",
            True,
        )

    async def test_the_agents_own_settings_are_kept_with_the_profile(
        self, sessions: WholeSessions
    ) -> None:
        own = AgentSettings.of(
            {"consolidation": {"thresholds": {"agent": 16}}, "facts": {"enabled": False}}
        )
        await sessions.record_messages(replace(profile(), settings=own), messages(1, 1), T0)
        state = await sessions.get_session(A, S1)
        assert state is not None
        assert state.profile.settings == own
        # A later turn with none set clears them: the profile is the host's latest word.
        await sessions.record_messages(profile(), messages(2, 2), T0)
        state = await sessions.get_session(A, S1)
        assert state is not None
        assert state.profile.settings == AgentSettings()

    async def test_another_users_turn_in_a_session_is_refused_and_writes_nothing(
        self, sessions: WholeSessions
    ) -> None:
        first = await sessions.record_messages(profile(users=(U1,)), messages(1, 2), T0)
        with pytest.raises(SessionUsersError, match="own session id"):
            await sessions.record_messages(
                profile(users=(U2,)), messages(3, 3, "user-2"), T0 + timedelta(minutes=1)
            )
        assert await sessions.get_session(A, S1) == first
        assert [s.session_id for s in await sessions.sessions_of_user(A, U2)] == []

    async def test_pending_messages_are_never_filed_as_one_member_of_their_group(
        self, sessions: WholeSessions
    ) -> None:
        first = await sessions.record_messages(profile(users=(U1, U2)), messages(1, 2), T0)
        with pytest.raises(SessionUsersError, match="not formed yet"):
            await sessions.record_messages(profile(users=(U1,)), messages(3, 3), T0)
        assert await sessions.get_session(A, S1) == first
        # With nothing pending, the group may narrow to one member, who was in it.
        await sessions.record_messages(profile(S2, (U1, U2)), [], T0)
        state = await sessions.record_messages(profile(S2, (U1,)), messages(1, 1), T0)
        assert (state.profile.user_ids, state.pending_messages) == ((U1,), 1)

    async def test_a_read_checked_on_the_stored_session_refuses_what_a_turn_refuses(
        self, sessions: WholeSessions
    ) -> None:
        """The read side of the rule (``check_reader`` over ``get_session``) relies on the
        stored users and pending count being those the turn's own check reads."""
        await sessions.record_messages(profile(S1, (U1,)), messages(1, 2), T0)
        await sessions.record_messages(profile(S2, (U1, U2)), messages(1, 2), T0)
        u3 = UserId("user-3")
        for session, given in [(S1, (U2,)), (S1, (U1,)), (S2, (U1,)), (S2, (U2, u3)), (S1, ())]:
            state = await sessions.get_session(A, session)
            try:
                check_reader(state, given)
                read = True
            except SessionUsersError:
                read = False
            try:
                await sessions.record_messages(profile(session, given), [], T0)
                turn = True
            except SessionUsersError:
                turn = False
            assert (session, given, read) == (session, given, turn)

    async def test_an_agent_only_session_may_learn_its_user(self, sessions: WholeSessions) -> None:
        await sessions.record_messages(profile(users=()), messages(1, 2), T0)
        state = await sessions.record_messages(profile(users=(U1,)), messages(3, 3), T0)
        assert (state.profile.user_ids, state.pending_messages) == ((U1,), 3)

    async def test_a_turn_naming_no_users_keeps_the_sessions_users(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(users=(U1,)), messages(1, 2), T0)
        state = await sessions.record_messages(
            profile(users=()), [message(3, "agent", Role.AGENT)], T0
        )
        assert (state.profile.user_ids, state.pending_messages) == ((U1,), 3)
        assert [s.session_id for s in await sessions.sessions_of_user(A, U1)] == [S1]
        # So another user cannot take the session over through an agent-only turn.
        with pytest.raises(SessionUsersError, match="own session id"):
            await sessions.record_messages(profile(users=(U2,)), messages(4, 4, U2), T0)

    async def test_dropping_a_groups_pending_context_keeps_only_the_remaining_members_words(
        self, sessions: WholeSessions
    ) -> None:
        said = [
            message(1, U1),
            message(2, U2),
            message(3, "agent", Role.AGENT),
            message(4, "search", Role.TOOL),
            PendingMessage(message(5).message.evolve(author_id=None), 5.0),
        ]
        await sessions.record_messages(profile(users=(U1, U2)), said, T0)
        await sessions.record_messages(profile(S2, (U1, U2)), messages(6, 6, U2), T0)
        assert await sessions.drop_pending_context(A, S1, [U1]) == 4
        state = await sessions.get_session(A, S1)
        assert state is not None
        assert state.pending_messages == 1
        assert state.pending_tokens == pytest.approx(1.0)
        assert claimed(await claim(sessions, "worker-1")) == ["msg-1"]
        assert await sessions.drop_pending_context(A, S1, [U1]) == 0  # only their words are left
        other = await sessions.get_session(A, S2)  # another session is left alone
        assert other is not None
        assert other.pending_messages == 1

    async def test_dropping_pending_context_leaves_formed_messages(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(users=(U1, U2)), messages(1, 2, "agent"), T0)
        formed = await claim(sessions, "worker-1")
        assert formed is not None
        await sessions.complete_claim(formed, [], T0)
        await sessions.record_messages(profile(users=(U1, U2)), messages(3, 3, "agent"), T0)
        assert await sessions.drop_pending_context(A, S1, [U1]) == 1
        assert await sessions.drop_pending_context(A, S2, [U1]) == 0  # no such session

    async def test_removing_a_user_takes_them_out_of_every_profile_of_the_agent(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(S1, (U1, U2)), messages(1, 2), T0)
        await sessions.record_messages(profile(S2, (U2,)), messages(3, 3, "user-2"), T0)
        await sessions.record_messages(profile(S1, (U1, U2), agent=B), messages(1, 1), T0)
        assert await sessions.remove_user(A, U1) == [S1]
        state = await sessions.get_session(A, S1)
        assert state is not None
        assert (state.profile.user_ids, state.pending_messages) == ((U2,), 2)
        assert [s.session_id for s in await sessions.sessions_of_user(A, U1)] == []
        assert [s.session_id for s in await sessions.sessions_of_user(A, U2)] == [S1, S2]
        other = await sessions.get_session(B, S1)  # another agent's session keeps its users
        assert other is not None
        assert other.profile.user_ids == (U1, U2)
        assert await sessions.remove_user(A, U1) == []

    async def test_cold_sessions_are_idle_with_enough_pending_messages(
        self, sessions: WholeSessions
    ) -> None:
        quiet, busy, small = SessionId("quiet"), SessionId("busy"), SessionId("small")
        await sessions.record_messages(profile(quiet), messages(1, 4), T0)
        await sessions.record_messages(profile(small), messages(1, 2), T0)
        await sessions.record_messages(profile(busy), messages(1, 4), T0 + timedelta(minutes=10))
        cold = await sessions.cold_sessions(T0, min_messages=4, limit=10)
        assert [s.session_id for s in cold] == [quiet]
        later = await sessions.cold_sessions(T0 + timedelta(minutes=10), 4, limit=10)
        assert {s.session_id for s in later} == {quiet, busy}
        assert len(await sessions.cold_sessions(T0 + timedelta(minutes=10), 4, limit=1)) == 1
        formed = await claim(sessions, "worker-1", session=quiet)
        assert formed is not None
        await sessions.complete_claim(formed, [], T0)
        assert await sessions.cold_sessions(T0, 4, limit=10) == []

    async def test_ending_a_session_stamps_it(self, sessions: WholeSessions) -> None:
        await sessions.record_messages(profile(), messages(1, 1), T0)
        ended = await sessions.end_session(A, S1, T0 + timedelta(hours=1))
        assert ended is not None
        assert ended.ended_at == T0 + timedelta(hours=1)
        assert await sessions.end_session(A, S2, T0) is None

    async def test_sessions_of_a_user_are_those_they_took_part_in(
        self, sessions: WholeSessions
    ) -> None:
        group = SessionId("group")
        await sessions.record_messages(profile(S1, (U1,)), messages(1, 1), T0)
        await sessions.record_messages(profile(group, (U1, U2)), messages(1, 1), T0)
        await sessions.record_messages(profile(S2, (U2,)), messages(1, 1), T0)
        await sessions.record_messages(profile(S1, (U1,), agent=B), messages(1, 1), T0)
        found = await sessions.sessions_of_user(A, U1)
        assert {(s.agent_id, s.session_id) for s in found} == {(A, S1), (A, group)}

    async def test_deleting_a_session_removes_its_messages_and_state(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(S1), messages(1, 3), T0)
        await sessions.record_messages(profile(S2), messages(1, 2), T0)
        assert await sessions.delete_session(A, S1) == 3
        assert await sessions.get_session(A, S1) is None
        assert await sessions.delete_session(A, S1) == 0
        assert claimed(await claim(sessions, "worker-1", session=S2)) == ["msg-1", "msg-2"]

    async def test_deleting_an_authors_messages_spares_everyone_else(
        self, sessions: WholeSessions
    ) -> None:
        mixed = [*messages(1, 2, author=U1), *messages(3, 4, author=U2)]
        await sessions.record_messages(profile(S1, (U1, U2)), mixed, T0)
        await sessions.record_messages(profile(S2), messages(1, 2, author=U1), T0)
        await sessions.record_messages(profile(S1, agent=B), messages(1, 2, author=U1), T0)
        assert await sessions.delete_messages_by_author(A, U1) == 4
        assert claimed(await claim(sessions, "worker-1")) == ["msg-3", "msg-4"]
        assert await claim(sessions, "worker-2", session=S2) is None
        assert claimed(await claim(sessions, "worker-3", agent=B)) == ["msg-1", "msg-2"]
