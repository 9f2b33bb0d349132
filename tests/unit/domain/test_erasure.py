"""Erasure by origin: what a user's erasure leaves of a shared fact, note or blob."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.erasure import (
    blob_after_erasure,
    emptied,
    fact_after_erasure,
    reflection_after_erasure,
)
from eden_memory.domain.ids import SessionId, UserId
from eden_memory.domain.models import ConsolidatedMemory, Fact, FactStatus, ReflectionRevision
from eden_memory.domain.models.provenance import Origin
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.testing import FakeEmbedder
from tests.unit.domain.builders import PROPERTY, T0, make_fact, make_reflection

ERASED = UserId("u1")
USERS = [UserId(u) for u in ("u1", "u2", "u3")]
SPACE = FakeEmbedder().space


def _origin() -> st.SearchStrategy[Origin | None]:
    users = st.lists(st.sampled_from(USERS), max_size=3, unique=True)
    session = st.sampled_from([SessionId("s1"), SessionId("s2"), None])
    made = st.builds(lambda s, u: Origin(session_id=s, user_ids=tuple(u)), session, users)
    return st.one_of(st.none(), made)


@st.composite
def facts(draw: st.DrawFn) -> Fact:
    """A shared fact formed by one origin and revised by others; maybe retired by one."""
    first = draw(_origin()) or Origin()
    fact = make_fact("f1", "text 0", scope=Scope.AGENT, agent_id="a1", user_id=None).evolve(
        source_session_id=first.session_id,
        source_user_ids=first.user_ids,
        source_message_ids=("m0",) if first.session_id else (),
    )
    for n in range(1, draw(st.integers(0, 4)) + 1):
        by = draw(_origin())
        fact = fact.revised(f"text {n}", T0, "merged", space=SPACE, by=by)
    if draw(st.booleans()):
        fact = fact.retired(T0, "contradicted", None, draw(_origin()))
    return fact


def _texts_of(fact: Fact) -> list[tuple[str, Origin | None]]:
    return [*((r.content, r.source) for r in fact.history), (fact.content, fact.origin)]


def _only_erased(origin: Origin | None) -> bool:
    return origin is not None and origin.user_ids == (ERASED,)


@PROPERTY
@given(facts(), st.sets(st.sampled_from([SessionId("s1"), SessionId("s2")])))
def test_a_fact_goes_only_when_every_text_was_the_users(fact: Fact, gone: set[SessionId]) -> None:
    after = fact_after_erasure(fact, ERASED, gone, T0)
    texts = _texts_of(fact)
    legacy = not fact.contributors and fact.source_session_id in gone
    if after is None:
        assert legacy or all(_only_erased(o) for _, o in texts)
        return
    assert not all(_only_erased(o) for _, o in texts)
    kept = {text for text, origin in texts if not _only_erased(origin)}
    assert after.content in kept  # never a text that was the user's alone
    assert {r.content for r in after.history} <= kept
    assert ERASED not in after.contributors
    for r in after.history:
        for origin in (r.source, r.changed_by):
            assert origin is None or ERASED not in origin.user_ids
            assert origin is None or origin.session_id not in gone
    assert after.source_session_id not in gone
    assert not set(after.contributor_sessions) & gone
    assert after.retired_by is None or ERASED not in after.retired_by.user_ids
    # Erasing again changes nothing.
    assert fact_after_erasure(after, ERASED, gone, T0) is after


@PROPERTY
@given(facts())
def test_a_fact_the_user_had_no_part_in_is_left_as_it_is(fact: Fact) -> None:
    outsider = UserId("u9")
    assert fact_after_erasure(fact, outsider, set(), T0) is fact


def test_the_users_rewrite_of_anothers_fact_is_undone_and_their_retirement_too() -> None:
    bob = Origin(session_id=SessionId("sb"), user_ids=(UserId("bob"),), message_ids=("m1",))
    alice = Origin(session_id=SessionId("sa"), user_ids=(ERASED,), message_ids=("m2",))
    fact = make_fact(
        "f1", "Refunds within 30 days", scope=Scope.AGENT, agent_id="a1", user_id=None
    ).evolve(
        source_session_id=bob.session_id, source_user_ids=bob.user_ids, source_message_ids=("m1",)
    )
    rewritten = fact.revised("Refunds within 365 days", T0, "merged", space=SPACE, by=alice)
    after = fact_after_erasure(
        rewritten.retired(T0, "x", None, alice), ERASED, {SessionId("sa")}, T0
    )
    assert after is not None
    assert (after.content, after.version, after.history) == ("Refunds within 30 days", 3, ())
    assert (after.source_session_id, after.contributors) == (bob.session_id, bob.user_ids)
    assert (after.status, after.retired_by, after.superseded_by) == (FactStatus.ACTIVE, None, None)


def test_a_note_goes_when_it_was_the_users_alone_and_loses_their_id_otherwise() -> None:
    key = ScopeKey.agent("a1")
    alone = make_reflection("r1", key).evolve(source_user_ids=(ERASED,))
    earlier = ReflectionRevision(version=1, content="the words of both", replaced_at=T0)
    shared = make_reflection("r2", key).evolve(
        source_user_ids=(ERASED, UserId("u2")), version=2, history=(earlier,)
    )
    legacy = make_reflection("r3", key).evolve(source_session_id="s1")
    other = make_reflection("r4", key).evolve(source_user_ids=(UserId("u2"),))
    assert reflection_after_erasure(alone, ERASED, set()) is None
    cleaned = reflection_after_erasure(shared, ERASED, set())
    assert cleaned is not None
    assert cleaned.source_user_ids == ("u2",)
    assert cleaned.history == ()  # an earlier text held the erased user's words too
    assert reflection_after_erasure(legacy, ERASED, {SessionId("s1")}) is None
    assert reflection_after_erasure(legacy, ERASED, set()) is legacy  # not attributable
    assert reflection_after_erasure(other, ERASED, set()) is other


def test_a_blob_loses_the_users_provenance_and_an_emptied_one_is_flagged_one_version_up() -> None:
    blob = ConsolidatedMemory.empty(ScopeKey.agent("a1"), 100).evolve(
        content="- a",
        version=4,
        source_user_ids=(ERASED, UserId("u2")),
        source_session_ids=("s1", "s2"),
    )
    after = blob_after_erasure(blob, ERASED, {SessionId("s1")})
    assert (after.source_user_ids, after.source_session_ids) == (("u2",), ("s2",))
    flagged = emptied(blob, T0)
    assert (flagged.content, flagged.version, flagged.needs_rebuild) == ("", 5, True)
    assert flagged.source_user_ids == ()
