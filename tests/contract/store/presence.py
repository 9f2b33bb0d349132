"""SessionStore: each message keeps who was present when it was recorded (issue 40, 3).

A formation runs after the turns it forms; by then the session's users may have changed. The
store stamps every message, as it records it, with the session's users after that turn
(``Message.present``), so words with no author and the agent's replies are credited to those
who were there, never to someone who joined later.
"""

from __future__ import annotations

from eden_memory.domain.ids import SessionId, UserId
from eden_memory.domain.models import Role
from eden_memory.ports.stores import PendingMessage
from tests.contract.store.world import (
    S1,
    S2,
    T0,
    U1,
    U2,
    A,
    StoreFixtures,
    WholeSessions,
    claim,
    message,
    profile,
)


def unauthored(n: int, role: Role = Role.USER) -> PendingMessage:
    said = message(n, role=role).message.evolve(author_id=None)
    return PendingMessage(said, float(n))


async def _present(sessions: WholeSessions, session: SessionId = S1) -> dict[str, object]:
    """Each pending message's id and who was present when it was recorded."""
    taken = await claim(sessions, "reader", session=session)
    assert taken is not None
    return {m.id: m.present for m in taken.messages}


class PresenceContract(StoreFixtures):
    async def test_each_message_keeps_the_users_present_when_it_was_recorded(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(users=(U1,)), [unauthored(1)], T0)
        await sessions.record_messages(profile(users=()), [unauthored(2, Role.AGENT)], T0)
        await sessions.record_messages(profile(users=(U1, U2)), [unauthored(3)], T0)
        assert await _present(sessions) == {
            "msg-1": (U1,),
            "msg-2": (U1,),  # a turn naming nobody keeps the session's users
            "msg-3": (U1, U2),
        }

    async def test_who_was_present_is_the_stores_record_not_the_hosts(
        self, sessions: WholeSessions
    ) -> None:
        claimed_by_host = message(1).message.evolve(present=(U2,))
        await sessions.record_messages(
            profile(users=(U1,)), [PendingMessage(claimed_by_host, 1)], T0
        )
        await sessions.record_messages(profile(S2, ()), [unauthored(2, Role.AGENT)], T0)
        assert await _present(sessions) == {"msg-1": (U1,)}
        assert await _present(sessions, S2) == {"msg-2": ()}

    async def test_a_recorded_message_is_not_stamped_again_by_a_retried_turn(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(users=(U1,)), [unauthored(1)], T0)
        await sessions.record_messages(profile(users=(U1, U2)), [unauthored(1)], T0)
        assert await _present(sessions) == {"msg-1": (U1,)}

    async def test_deleting_a_users_messages_takes_their_words_said_alone_with_no_author(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(
            profile(users=(U1,)), [unauthored(1), unauthored(2, Role.AGENT)], T0
        )
        await sessions.record_messages(
            profile(users=(U1, U2)), [unauthored(3), message(4, author=U2)], T0
        )
        formed = await claim(sessions, "worker-1", limit=1)
        assert formed is not None
        await sessions.complete_claim(formed, [], T0)  # formed words go too
        assert await sessions.delete_messages_by_author(A, U1) == 1
        # The agent's reply and the group's unauthored words are nobody's own: erasure's
        # ``drop_pending_context`` decides on those.
        assert set(await _present(sessions)) == {"msg-2", "msg-3", "msg-4"}
        assert await sessions.delete_messages_by_author(A, UserId("nobody")) == 0

    async def test_unauthored_words_of_a_session_of_nobody_are_nobodys(
        self, sessions: WholeSessions
    ) -> None:
        await sessions.record_messages(profile(users=()), [unauthored(1)], T0)
        await sessions.record_messages(profile(users=(U1,)), [message(2)], T0)
        assert await sessions.delete_messages_by_author(A, U1) == 1
        taken = await claim(sessions, "worker-1")
        assert taken is not None
        assert [(m.id, m.present) for m in taken.messages] == [("msg-1", ())]
