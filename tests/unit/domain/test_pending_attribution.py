"""Whose pending words a formation may file where: authors over the session's users now."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.ids import AgentId, MessageId, SessionId, UserId
from eden_memory.domain.models import Message, Role
from eden_memory.domain.models.provenance import filed_author, speakers
from eden_memory.domain.participants import (
    batch_owner,
    formable_scopes,
    outlives_member,
    present_to,
    users_after_turn,
)
from eden_memory.domain.scopes import ActiveScopes, Scope
from tests.unit.domain.builders import PROPERTY

ALICE, BOB, CAROL = UserId("alice"), UserId("bob"), UserId("carol")
T0 = datetime(2026, 1, 5, tzinfo=UTC)
users = st.lists(st.sampled_from([ALICE, BOB, CAROL]), max_size=3, unique=True)
authors = st.one_of(st.none(), st.sampled_from([ALICE, BOB, CAROL, "Bob Smith"]))
roles = st.sampled_from(list(Role))


def said(
    role: Role, author: str | None, n: int = 0, present: tuple[UserId, ...] | None = None
) -> Message:
    message = Message(id=MessageId(f"m{n}"), role=role, text="x", sent_at=T0, author_id=author)
    return message if present is None else present_to(message, present)


batches = st.lists(st.builds(said, roles, authors, st.integers(0, 99)), min_size=1, max_size=6)
presents = st.lists(st.sampled_from([ALICE, BOB, CAROL]), max_size=3, unique=True).map(tuple)
stamped = st.lists(
    st.builds(said, roles, authors, st.integers(0, 99), presents), min_size=1, max_size=6
)


def test_words_keep_their_named_author_whoever_the_session_has_now() -> None:
    assert speakers([said(Role.USER, BOB)], [ALICE]) == (BOB,)
    assert speakers([said(Role.USER, BOB)], [ALICE, CAROL]) == (BOB,)
    assert speakers([said(Role.USER, BOB)], []) == (BOB,)


def test_words_with_no_author_are_the_sessions_users() -> None:
    assert speakers([said(Role.USER, None)], [ALICE]) == (ALICE,)
    assert speakers([said(Role.AGENT, "nova")], [ALICE, BOB]) == (ALICE, BOB)
    # A display name is no user id: it names nobody.
    assert speakers([said(Role.USER, "Bob Smith")], [ALICE]) == (ALICE,)


def test_a_turn_naming_nobody_keeps_the_sessions_users() -> None:
    assert users_after_turn([ALICE], []) == (ALICE,)
    assert users_after_turn([ALICE], [ALICE, BOB]) == (ALICE, BOB)
    assert users_after_turn([], [BOB]) == (BOB,)


def test_a_batch_with_another_authors_words_forms_no_user_memory() -> None:
    assert batch_owner([ALICE], [said(Role.USER, ALICE), said(Role.AGENT, "nova")]) == ALICE
    assert batch_owner([ALICE], [said(Role.USER, None)]) == ALICE
    assert batch_owner([ALICE], [said(Role.USER, BOB), said(Role.USER, ALICE)]) is None
    assert batch_owner([ALICE, BOB], [said(Role.USER, ALICE)]) is None
    scopes = ActiveScopes(
        AgentId("nova"), SessionId("s"), ALICE, frozenset({Scope.USER, Scope.SESSION})
    )
    narrowed = formable_scopes(scopes, [said(Role.USER, BOB)])
    assert (narrowed.user_id, narrowed.scopes) == (None, frozenset({Scope.SESSION}))
    assert formable_scopes(scopes, [said(Role.USER, ALICE)]) is scopes


def test_only_a_remaining_members_own_words_outlive_an_erased_member() -> None:
    assert outlives_member(said(Role.USER, ALICE), [ALICE])
    assert not outlives_member(said(Role.USER, BOB), [ALICE])
    assert not outlives_member(said(Role.USER, None), [ALICE])
    assert not outlives_member(said(Role.AGENT, ALICE), [ALICE])


@PROPERTY
@given(batches, users)
def test_no_named_authors_words_are_credited_to_anyone_else(
    batch: list[Message], session: list[UserId]
) -> None:
    real = (ALICE, BOB, CAROL)
    named = {m.author_id for m in batch if m.role is Role.USER and m.author_id in real}
    credited = set(speakers(batch, session))
    if named:
        assert credited == named
    else:
        assert credited == set(session)


@PROPERTY
@given(batches, users)
def test_user_memory_only_ever_holds_its_owners_named_words(
    batch: list[Message], session: list[UserId]
) -> None:
    owner = batch_owner(session, batch)
    if owner is not None:
        assert session == [owner]
        assert all(m.author_id in (owner, None, "Bob Smith") for m in batch if m.role is Role.USER)


@PROPERTY
@given(batches, users)
def test_what_outlives_a_member_is_the_remaining_members_own_words(
    batch: list[Message], remaining: list[UserId]
) -> None:
    kept = [m for m in batch if outlives_member(m, remaining)]
    assert all(m.role is Role.USER and m.author_id in remaining for m in kept)
    assert set(speakers(kept, [])) <= set(remaining)


def test_words_of_no_user_are_credited_to_who_was_present_not_to_who_came_later() -> None:
    assert speakers([said(Role.USER, None, present=(ALICE,))], [ALICE, BOB]) == (ALICE,)
    assert speakers([said(Role.AGENT, "nova", present=(ALICE,))], [ALICE, BOB]) == (ALICE,)
    assert speakers([said(Role.AGENT, "nova", present=())], [ALICE]) == ()
    assert speakers([said(Role.USER, None, present=())], [ALICE]) == ()


def test_a_reply_to_a_group_is_credited_to_whom_of_it_spoke() -> None:
    group = (ALICE, BOB)
    assert speakers([said(Role.USER, BOB), said(Role.AGENT, "nova", 1, group)], group) == (BOB,)
    # A reply heard by alice alone, formed with bob's words: alice's too, not bob's alone.
    to_alice = said(Role.AGENT, "nova", 1, (ALICE,))
    assert speakers([said(Role.USER, BOB), to_alice], group) == (BOB, ALICE)


def test_a_sole_users_words_with_no_author_are_filed_under_them() -> None:
    assert filed_author(said(Role.USER, None, present=(ALICE,))) == ALICE
    assert filed_author(said(Role.USER, None, present=(ALICE, BOB))) is None
    assert filed_author(said(Role.USER, None)) is None
    assert filed_author(said(Role.AGENT, None, present=(ALICE,))) is None
    assert filed_author(said(Role.USER, "Bob Smith", present=(ALICE,))) == "Bob Smith"
    assert outlives_member(said(Role.USER, None, present=(ALICE,)), [ALICE])
    assert not outlives_member(said(Role.USER, None, present=(ALICE,)), [BOB])


def test_user_memory_holds_nothing_said_to_others_or_by_nobody_known() -> None:
    assert batch_owner([ALICE], [said(Role.AGENT, "nova", present=())]) == ALICE  # a greeting
    assert batch_owner([ALICE], [said(Role.AGENT, "nova", present=(ALICE, BOB))]) is None
    assert batch_owner([ALICE], [said(Role.USER, None, present=())]) is None
    assert batch_owner([ALICE], [said(Role.USER, "Bob Smith", present=(ALICE,))]) == ALICE


@PROPERTY
@given(stamped, users)
def test_nobody_is_credited_who_neither_spoke_nor_heard(
    batch: list[Message], session: list[UserId]
) -> None:
    credited = set(speakers(batch, session))
    real = (ALICE, BOB, CAROL)
    named = {m.author_id for m in batch if m.role is Role.USER and m.author_id in real}
    heard = {u for m in batch for u in m.present or ()}
    assert named <= credited <= named | heard
    for m in batch:  # whatever no user said is credited to someone who heard it, if anyone did
        if m.present and not (m.role is Role.USER and m.author_id in real):
            assert credited & set(m.present)


@PROPERTY
@given(stamped, users)
def test_user_memory_only_holds_words_said_to_its_owner_alone(
    batch: list[Message], session: list[UserId]
) -> None:
    owner = batch_owner(session, batch)
    if owner is not None:
        assert all(set(m.present or ()) <= {owner} for m in batch)
        assert set(speakers(batch, session)) <= {owner}
