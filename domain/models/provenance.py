"""Provenance: whose words formed or changed a memory, so shared memory can be traced and erased.

Agent-scope memory is learned from every user of the agent. An operator must be able to ask
who formed a fact or changed it, and erasing a user must find what came from them alone; so
every fact, reflection and blob names the sessions and users whose messages it came from.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Self

from pydantic import model_validator

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import MessageId, SessionId, UserId, check_id
from eden_memory.domain.models.base import Record
from eden_memory.domain.models.messages import Message, Role


class Origin(Record):
    """One cause of a memory's text or of a change to it: a session, its users, the messages.

    An origin with no users is not a user's: a person's edit through management, or text
    whose speakers are unknown.
    """

    session_id: SessionId | None = None
    user_ids: tuple[UserId, ...] = ()
    message_ids: tuple[MessageId, ...] = ()

    @model_validator(mode="after")
    def _ids(self) -> Self:
        if self.session_id is not None:
            check_id(self.session_id, "origin session id")
        for user in self.user_ids:
            check_id(user, "origin user id")
        for message in self.message_ids:
            check_id(message, "origin message id")
        object.__setattr__(self, "user_ids", distinct(self.user_ids))
        return self

    def only(self, user: UserId) -> bool:
        """Whether these are ``user``'s words and nobody else's."""
        return self.user_ids == (user,)

    def without(self, user: UserId, gone: Collection[SessionId]) -> Origin:
        """The origin with ``user`` and the sessions in ``gone`` forgotten (erasure)."""
        session = None if self.session_id in gone else self.session_id
        return self.evolve(
            session_id=session,
            user_ids=tuple(u for u in self.user_ids if u != user),
            message_ids=self.message_ids if session is not None else (),
        )


def distinct(values: Iterable[str]) -> tuple[str, ...]:
    """Each value once, in first-seen order (provenance lists grow by union)."""
    return tuple(dict.fromkeys(values))


def speakers(messages: Sequence[Message], session_users: Sequence[UserId]) -> tuple[UserId, ...]:
    """The users whose words ``messages`` are.

    The authors of its user messages, where the host named them, whoever they are: words
    recorded before their author left the session, or in a session that named nobody, are
    still that author's, never the users the session has when they are formed. With no author
    named (the agent's words cited, or a host that gives none), the session's users: they were
    all in the conversation, and naming nobody would let the memory escape an erasure of its
    real source.
    """
    authors = distinct(a for a in map(user_author, messages) if a is not None)
    return tuple(UserId(u) for u in authors) or tuple(session_users)


def user_author(message: Message) -> UserId | None:
    """The user who wrote ``message``: its author, for a user message whose author is a valid
    user id (a display name there names no user)."""
    if message.role is not Role.USER or message.author_id is None:
        return None
    try:
        return UserId(check_id(message.author_id))
    except InvalidInputError:
        return None
