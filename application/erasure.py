"""Erasing one user: everything the agent keeps about them, and only that."""

from __future__ import annotations

from dataclasses import dataclass, field

from eden_memory.domain.ids import AgentId, UserId
from eden_memory.domain.scopes import ScopeKey
from eden_memory.ports.stores import RevisionStore, SessionStore


@dataclass
class Erasure:
    """What an erasure removed, by kind."""

    user_scope_records: int = 0
    sessions: list[str] = field(default_factory=list)
    session_scope_records: int = 0
    session_messages: int = 0
    messages_in_group_sessions: int = 0


async def erase_user(
    sessions: SessionStore, revisions: RevisionStore, agent: AgentId, user: UserId
) -> Erasure:
    """Remove the user's facts, reflections and blob with this agent, every session they had
    alone with it (messages, session memory), and their own messages in group sessions.

    Agent-scoped memory is the agent's knowledge, shared by all its users; it is kept.
    """
    report = Erasure()
    report.user_scope_records = await revisions.delete_scope(ScopeKey.user(agent, user))
    for state in await sessions.sessions_of_user(agent, user):
        if state.profile.user_ids == (user,):
            report.sessions.append(state.session_id)
            key = ScopeKey.session(agent, state.session_id)
            report.session_scope_records += await revisions.delete_scope(key)
            report.session_messages += await sessions.delete_session(agent, state.session_id)
    report.messages_in_group_sessions = await sessions.delete_messages_by_author(agent, user)
    return report
