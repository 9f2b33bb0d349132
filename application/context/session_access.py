"""A conversation's calls, checked against the session's stored users before anything is read.

The store checks a turn inside its write (``domain/participants.py``); every other call that
names a conversation reads the session's users and pending count here and applies the same
rule: a conversation whose turn the store would refuse sees nothing of the session
(``SessionUsersError``). A session not recorded yet lets anyone in, as its first turn does.
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.domain.ids import UserId
from eden_memory.domain.participants import check_caller, check_reader
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import ActiveScopes, Scope
from eden_memory.ports.stores import SessionStore


async def reader_checked(
    sessions: SessionStore, scopes: ActiveScopes, users: Sequence[UserId]
) -> None:
    """Raise ``SessionUsersError`` unless ``users`` may read the session (``check_reader``).
    Without the session scope (memory off) nothing of the session is read, and nothing is
    checked, as a turn records nothing then."""
    if Scope.SESSION in scopes.scopes:
        state = await sessions.get_session(scopes.agent_id, scopes.session_id)
        check_reader(state, users)


async def caller_checked(sessions: SessionStore, conversation: SessionProfile) -> None:
    """Raise ``SessionUsersError`` unless ``conversation`` may end, form or consolidate its
    session (``check_caller``)."""
    state = await sessions.get_session(conversation.agent_id, conversation.session_id)
    check_caller(state, conversation.user_ids)
