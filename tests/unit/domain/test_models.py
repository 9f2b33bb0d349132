from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.ids import AgentId, FactId, MessageId, ReflectionId, SessionId, UserId
from eden_memory.domain.models import (
    ConsolidatedMemory,
    FactStatus,
    Message,
    Reflection,
    Role,
    SessionState,
)
from eden_memory.domain.models.messages import MAX_MESSAGE_CHARS
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.text import content_hash
from tests.unit.domain.builders import PROPERTY, T0, line_text, make_fact, make_reflection

NEXT = EmbeddingSpace("next-embedder", 8)

NAIVE = datetime(2025, 6, 1, 12, 0)


def test_a_fact_refuses_a_naive_time() -> None:
    with pytest.raises(ValidationError, match="timezone-aware"):
        make_fact(formed_at=NAIVE)


def test_every_record_refuses_naive_times() -> None:
    with pytest.raises(ValidationError, match="timezone-aware"):
        Message(id=MessageId("m1"), role=Role.USER, text="hi", sent_at=NAIVE)
    with pytest.raises(ValidationError, match="timezone-aware"):
        make_reflection("r1", ScopeKey.agent("a1"), formed_at=NAIVE)
    with pytest.raises(ValidationError, match="timezone-aware"):
        ConsolidatedMemory.empty(ScopeKey.agent("a1"), 10).evolve(updated_at=NAIVE)
    with pytest.raises(ValidationError, match="timezone-aware"):
        SessionState(profile=SessionProfile(AgentId("a1"), SessionId("s1")), last_activity_at=NAIVE)


@PROPERTY
@given(st.datetimes(timezones=st.timezones()))
def test_aware_times_are_kept_as_the_same_instant_in_utc(when: datetime) -> None:
    message = Message(id=MessageId("m1"), role=Role.USER, text="hi", sent_at=when)
    assert message.sent_at == when.astimezone(UTC)
    assert message.sent_at.utcoffset() == timedelta(0)


def test_a_fact_refuses_session_scope() -> None:
    with pytest.raises(ValidationError, match="never session-scoped"):
        make_fact(scope=Scope.SESSION)


def test_a_user_fact_needs_its_user_and_an_agent_fact_has_none() -> None:
    with pytest.raises(ValidationError, match="user_id"):
        make_fact(scope=Scope.USER, user_id=None)
    with pytest.raises(ValidationError, match="user_id"):
        make_fact(scope=Scope.AGENT).evolve(user_id="u1")
    assert make_fact(scope=Scope.AGENT).key == ScopeKey.agent("agent-1")


def test_a_fact_refuses_bad_ids_and_empty_or_illegal_content() -> None:
    with pytest.raises(ValidationError):
        make_fact(fact_id='{"$ne": 1}')
    with pytest.raises(ValidationError):
        make_fact(content="   ")
    with pytest.raises(ValidationError):
        make_fact(content="bell \x07")


def test_a_fact_computes_its_hash_whatever_it_is_given() -> None:
    fact = make_fact(content="  Alice likes   tea. ")
    assert fact.content == "Alice likes tea."
    assert fact.content_hash == content_hash("alice likes tea")
    assert fact.evolve(content_hash="forged").content_hash == fact.content_hash


@PROPERTY
@given(line_text())
def test_a_fact_holds_any_one_line_text_and_its_hash(text: str) -> None:
    fact = make_fact(content=text)
    assert fact.content == " ".join(text.split())
    assert fact.content_hash == content_hash(fact.content)


def test_a_revised_fact_keeps_the_old_content_in_its_history() -> None:
    fact = make_fact(content="Alice lives in Paris")
    later = T0 + timedelta(days=1)
    revised = fact.revised("Alice lives in Lyon", later, reason="moved", space=NEXT)
    assert revised.content == "Alice lives in Lyon"
    assert revised.version == 2
    assert revised.updated_at == later
    assert revised.content_hash == content_hash("Alice lives in Lyon")
    # The new content was embedded by NEXT: the fact says so, whatever embedded the old one.
    assert revised.embedding_space == NEXT
    assert len(revised.history) == 1
    old = revised.history[0]
    assert (old.version, old.content, old.replaced_at, old.reason) == (
        1,
        "Alice lives in Paris",
        later,
        "moved",
    )
    assert fact.version == 1
    assert fact.history == ()


@PROPERTY
@given(st.lists(line_text(), min_size=1, max_size=5))
def test_revisions_accumulate_every_previous_content(contents: list[str]) -> None:
    fact = make_fact(content="first")
    seen = [fact.content]
    for n, content in enumerate(contents, start=1):
        fact = fact.revised(content, T0 + timedelta(minutes=n), space=fact.embedding_space)
        seen.append(fact.content)
    assert fact.version == len(contents) + 1
    assert [r.content for r in fact.history] == seen[:-1]
    assert [r.version for r in fact.history] == list(range(1, len(contents) + 1))


def test_a_retired_fact_keeps_its_content() -> None:
    fact = make_fact(content="Alice is vegetarian")
    later = T0 + timedelta(hours=1)
    retired = fact.retired(later, "contradicted", FactId("f2"))
    assert retired.content == fact.content
    assert retired.content_hash == fact.content_hash
    assert retired.status is FactStatus.RETIRED
    assert not retired.is_active
    assert (retired.retired_at, retired.retired_reason, retired.superseded_by) == (
        later,
        "contradicted",
        "f2",
    )
    assert fact.is_active


def test_records_are_frozen_and_refuse_unknown_fields() -> None:
    fact = make_fact()
    with pytest.raises(ValidationError):
        fact.content = "changed"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        fact.evolve(colour="blue")


def test_a_reflection_belongs_to_exactly_one_scope_key() -> None:
    key = ScopeKey.session("a1", "s1")
    reflection = make_reflection("r1", key)
    assert reflection.key == key
    assert Reflection.in_scope(key, id="r2", content="x", formed_at=T0, created_at=T0).key == key
    with pytest.raises(ValidationError):
        Reflection(
            id=ReflectionId("r3"),
            content="x",
            scope=Scope.SESSION,
            agent_id=AgentId("a1"),
            formed_at=T0,
            created_at=T0,
        )
    with pytest.raises(ValidationError):
        make_reflection("r4", key, content="\n")


def test_a_consolidated_blob_starts_empty_and_is_trimmed() -> None:
    key = ScopeKey.user("a1", "u1")
    empty = ConsolidatedMemory.empty(key, 300)
    assert (empty.content, empty.version, empty.word_limit, empty.key) == ("", 0, 300, key)
    assert empty.evolve(content="  hello\nworld \n").content == "hello\nworld"
    with pytest.raises(ValidationError):
        ConsolidatedMemory.empty(key, 0)
    with pytest.raises(ValidationError):
        empty.evolve(user_id=None)


def test_a_message_is_bounded_and_has_a_valid_id() -> None:
    Message(id=MessageId("m1"), role=Role.TOOL, text="", sent_at=T0)
    with pytest.raises(ValidationError, match="limit"):
        Message(id=MessageId("m1"), role=Role.USER, text="x" * (MAX_MESSAGE_CHARS + 1), sent_at=T0)
    with pytest.raises(ValidationError):
        Message(id=MessageId("m 1"), role=Role.USER, text="hi", sent_at=T0)


def test_a_session_state_gives_its_profile_and_claim() -> None:
    state = SessionState(
        profile=SessionProfile(
            AgentId("a1"),
            SessionId("s1"),
            (UserId("u1"), UserId("u2")),
            agent_memory_enabled=False,
        ),
        claim_expires_at=T0,
    )
    assert state.profile.is_group
    assert state.profile.agent_memory_enabled is False
    assert state.profile.user_memory_enabled is True
    assert state.profile.scopes(True).scopes == {Scope.SESSION}  # a group, agent memory off
    assert state.claim_active(T0 - timedelta(seconds=1))
    assert not state.claim_active(T0)
    with pytest.raises(ValidationError):
        SessionState(profile=SessionProfile(AgentId("a1"), SessionId("s1")), pending_messages=-1)


def test_times_in_other_zones_are_stored_in_utc() -> None:
    paris = datetime(2025, 6, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    fact = make_fact(formed_at=paris)
    assert fact.formed_at == T0
    assert fact.formed_at.tzinfo is UTC
