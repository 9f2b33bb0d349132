"""A conversation's calls, checked against the session's stored users before anything is read.

The store checks a turn inside its write (``domain/participants.py``); every other call that
names a conversation reads the session's users and pending count here and applies the same
rule: a conversation whose turn the store would refuse sees nothing of the session
(``SessionUsersError``). A session not recorded yet lets anyone in, as its first turn does.
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.participants import check_caller, check_reader
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import SessionStore


async def reader_checked(
    sessions: SessionStore, agent_id: AgentId, session_id: SessionId, users: Sequence[UserId]
) -> None:
    """Raise ``SessionUsersError`` unless ``users`` may read the session (``check_reader``)."""
    check_reader(await sessions.get_session(agent_id, session_id), users)


async def caller_checked(sessions: SessionStore, conversation: SessionProfile) -> None:
    """Raise ``SessionUsersError`` unless ``conversation`` may end, form or consolidate its
    session (``check_caller``)."""
    state = await sessions.get_session(conversation.agent_id, conversation.session_id)
    check_caller(state, conversation.user_ids)
