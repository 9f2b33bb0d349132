"""Provenance: whose words formed or changed a memory, so shared memory can be traced and erased.

Agent-scope memory is learned from every user of the agent. An operator must be able to ask
who formed a fact or changed it, and erasing a user must find what came from them alone; so
every fact, reflection and blob names the sessions and users whose messages it came from.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Self

from pydantic import model_validator

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import MessageId, SessionId, UserId, check_id, check_sources
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


class Sourced:
    """The provenance a fact and a reflection share: whose words their current text is, read
    as one ``Origin``. The three ``source_*`` fields stay flat, declared by each record where
    its stored and exported shape puts them (an export is compared byte for byte)."""

    if TYPE_CHECKING:
        source_session_id: SessionId | None
        source_message_ids: tuple[MessageId, ...]
        source_user_ids: tuple[UserId, ...]

    @property
    def origin(self) -> Origin:
        """Whose words the current content is."""
        return Origin(
            session_id=self.source_session_id,
            user_ids=self.source_user_ids,
            message_ids=self.source_message_ids,
        )

    def _check_sources(self) -> None:
        """Every id checked, each user once (called by the record's own validator)."""
        check_sources(self.source_session_id, self.source_message_ids)
        for user in self.source_user_ids:
            check_id(user, "provenance user id")
        object.__setattr__(self, "source_user_ids", distinct(self.source_user_ids))


def distinct(values: Iterable[str]) -> tuple[str, ...]:
    """Each value once, in first-seen order (provenance lists grow by union)."""
    return tuple(dict.fromkeys(values))


def speakers(messages: Sequence[Message], session_users: Sequence[UserId]) -> tuple[UserId, ...]:
    """The users whose words ``messages`` are.

    A user message's user (``user_author``), whoever the session has when it is formed:
    words recorded before their author left, or in a session that named nobody, stay that
    author's. Words of no user (the agent's replies, tools' results, a group's words with no
    author) may quote those who heard them: they are credited to the users present when they
    were said (``Message.present``), never to one who came later, and to the batch's authors
    among those when there are some (the agent answers who spoke; crediting the rest would
    keep an erased speaker's words alive under their names).
    """
    credited = [a for a in map(user_author, messages) if a is not None]
    authors = set(credited)
    for message in messages:
        if user_author(message) is None:
            credited.extend(hearers(message, authors, session_users))
    return tuple(UserId(u) for u in distinct(credited))


def hearers(
    message: Message, authors: Collection[UserId], session_users: Sequence[UserId]
) -> tuple[UserId, ...]:
    """Who words of no user are credited to, beside ``authors`` (``speakers``). A message
    stored before stores kept who was present is the session's users', when the batch names
    no author (as it was then)."""
    if message.present is None:
        return () if authors else tuple(session_users)
    return () if any(u in authors for u in message.present) else message.present


def user_author(message: Message) -> UserId | None:
    """The user whose words ``message`` are: for a user message, its author when that is a
    valid user id (a display name names no user), or, with no author given, the one user
    present when it was said."""
    if message.role is not Role.USER:
        return None
    if message.author_id is None:
        present = message.present or ()
        return present[0] if len(present) == 1 else None
    try:
        return UserId(check_id(message.author_id))
    except InvalidInputError:
        return None


def filed_author(message: Message) -> str | None:
    """The author a store files ``message`` under, which erasing a user deletes by: the user
    whose words it is (``user_author``), else the author the host gave."""
    return user_author(message) or message.author_id
