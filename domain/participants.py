"""Who may take part in a session after it was first recorded.

A session id names one conversation. A host that reuses ``"s1"`` for every user would
otherwise let the second user's turn relabel the first user's pending messages (formed as
the second user's facts) and show the first user's session memory to the second. A group's
membership may still change, and an agent-only session may learn its user.

One rule for every call that names a conversation: a turn (``check_participants``, in each
store's ``record_messages``), a read of the session's memory (``check_reader``: the context,
a search) and a call that forms it with its stored users (``check_caller``: session end,
formation, consolidation).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from eden_memory.domain.errors import SessionUsersError
from eden_memory.domain.ids import UserId
from eden_memory.domain.models import Message, Role, SessionState
from eden_memory.domain.models.provenance import user_author
from eden_memory.domain.scopes import ActiveScopes, Scope


def user_scope_owner(users: Sequence[UserId]) -> UserId | None:
    """The user whose user memory a session forms: its only user (a group forms none)."""
    distinct = set(users)
    return next(iter(distinct)) if len(distinct) == 1 else None


def participants_refusal(
    stored: Sequence[UserId], given: Sequence[UserId], pending: int
) -> str | None:
    """Why a turn naming ``given`` users may not be recorded in a session of ``stored`` users
    with ``pending`` messages not yet formed, or None when it may.

    Refused: two non-empty sets with no user in common (another user's conversation), and,
    while messages are pending, a change that would file them as one user's memory when they
    were not that user's alone (a group narrowed to one member, or one user replaced)."""
    before, after = set(stored), set(given)
    if before == after or not before:
        return None
    if after and before.isdisjoint(after):
        return "it belongs to other users; give each user's conversation its own session id"
    owner = user_scope_owner(given)
    if pending > 0 and owner is not None and before != {owner}:
        return (
            f"{pending} messages recorded with other users are not formed yet and would be "
            f"filed as {owner}'s memory; end the session first or use a new session id"
        )
    return None


def check_participants(
    session_id: str, stored: Sequence[UserId], given: Sequence[UserId], pending: int
) -> None:
    """Raise ``SessionUsersError`` when ``participants_refusal`` refuses the turn."""
    reason = participants_refusal(stored, given, pending)
    if reason is not None:
        raise SessionUsersError(
            f"session {session_id!r} was recorded with users {sorted(set(stored))}, "
            f"not {sorted(set(given))}: {reason}"
        )


def users_after_turn(stored: Sequence[UserId], given: Sequence[UserId]) -> tuple[UserId, ...]:
    """The session's users once a turn naming ``given`` is recorded.

    A turn that names nobody (the agent speaking on its own) keeps the users the session has:
    forgetting them would form their pending words with no source (out of reach of their
    erasure) and let any user's next turn take the session over."""
    return tuple(given) if given else tuple(stored)


def batch_owner(users: Sequence[UserId], messages: Sequence[Message]) -> UserId | None:
    """Whose user memory a batch of pending messages may form: the session's only user, and
    only when every message is theirs alone (``said_to_owner``)."""
    owner = user_scope_owner(users)
    if owner is None or not all(said_to_owner(m, owner) for m in messages):
        return None
    return owner


def said_to_owner(message: Message, owner: UserId) -> bool:
    """Whether ``message`` may form ``owner``'s memory: their own words, or words of no user
    said to them alone. Not: another author's words, a reply given to a group, or user words
    with no author said to a group or while the session named nobody (whose, nobody knows).
    A message stored before stores kept who was present is judged by its author alone."""
    author = user_author(message)
    if author is not None or message.present is None:
        return author in (owner, None)
    heard = set(message.present)
    return heard <= {owner} and (bool(heard) or message.role is not Role.USER)


def present_to(message: Message, users: Sequence[UserId]) -> Message:
    """``message`` stamped with who was present when it was recorded: ``users``, the session's
    users after its turn (checked ids: the profile's)."""
    return message.model_copy(update={"present": tuple(dict.fromkeys(users))})


def formable_scopes(scopes: ActiveScopes, messages: Sequence[Message]) -> ActiveScopes:
    """The scopes a formation of ``messages`` may write: ``scopes`` without the user scope
    when the batch holds words that are not its user's alone (``batch_owner``)."""
    if scopes.user_id is None or batch_owner((scopes.user_id,), messages) is not None:
        return scopes
    return replace(scopes, user_id=None, scopes=scopes.scopes - {Scope.USER})


def outlives_member(message: Message, remaining: Collection[UserId]) -> bool:
    """Whether a group's pending message stays when a member is erased: only the remaining
    members' own words (by author) do. The agent's replies, tools' results and words with no
    author may answer or quote the erased member: they go with the member's words, so what
    remains pending is each remaining member's alone and can never be filed as theirs wrongly."""
    return user_author(message) in remaining


def reader_refusal(session: SessionState | None, users: Sequence[UserId]) -> str | None:
    """Why a conversation of ``users`` may not read ``session`` (None: it may), for a page
    that shows the refusal instead of raising it (``check_reader``)."""
    if session is None:
        return None
    return participants_refusal(session.profile.user_ids, users, session.pending_messages)


def check_reader(session: SessionState | None, users: Sequence[UserId]) -> None:
    """Raise ``SessionUsersError`` when a conversation of ``users`` may not read ``session``
    (None: not recorded yet): exactly when its next turn would be refused. A context shown
    first and refused at the turn after would already have put another user's memory in
    the prompt."""
    if session is not None:
        check_participants(
            session.session_id, session.profile.user_ids, users, session.pending_messages
        )


def check_caller(session: SessionState | None, users: Sequence[UserId]) -> None:
    """``check_reader`` for a call that forms the session's pending words with its stored
    users, not the caller's (end, formation, consolidation): only another user's
    conversation is refused, so a group member may still end the group's session."""
    if session is not None:
        check_participants(session.session_id, session.profile.user_ids, users, 0)
