"""The pure parts: keyset cursors; the guard's signatures."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.console.guard import Guard
from eden_memory.adapters.console.paging import cursor_of, position
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope

IDS = st.from_regex(r"[A-Za-z0-9_.:@+\-/=]{1,40}", fullmatch=True)
TIMES = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


def _fact(fact_id: str, at: datetime) -> Fact:
    return Fact(
        id=fact_id,
        content="x",
        scope=Scope.AGENT,
        agent_id="a",
        formed_at=at,
        created_at=at,
        updated_at=at,
        embedding_model="m",
        embedding_dim=2,
    )


@given(IDS, TIMES)
def test_a_cursor_names_exactly_the_facts_position(fact_id: str, at: datetime) -> None:
    found = position(cursor_of(_fact(fact_id, at)))
    assert found is not None
    assert found.id == fact_id
    assert found.formed_at == at


@pytest.mark.parametrize(
    "bad", ["yesterday", "2026-01-01T00:00:00~", "2026-01-01T00:00:00~f1", "x~f1", "~f1"]
)
def test_anything_else_is_not_a_position(bad: str) -> None:
    with pytest.raises(InvalidInputError):
        position(bad)


@given(st.text(min_size=1, max_size=30))
def test_only_the_consoles_own_cookies_and_tokens_pass(token: str) -> None:
    guard = Guard(token)
    cookie = guard.new_cookie()
    session = guard.session_of(cookie)
    assert session is not None
    assert guard.session_of(Guard(token + "x").new_cookie()) is None
    assert guard.session_of(cookie[:-1] + ("0" if cookie[-1] != "0" else "1")) is None
    assert guard.session_of(None) is None
    assert guard.csrf_for(session) != guard.csrf_for(session + "x")
    assert guard.token_matches(token)
    assert not guard.token_matches(token + "x")


def test_two_cookies_are_two_sessions_with_their_own_csrf_tokens() -> None:
    guard = Guard("t")
    one, two = guard.session_of(guard.new_cookie()), guard.session_of(guard.new_cookie())
    assert one is not None
    assert two is not None
    assert one != two
    assert guard.csrf_for(one) != guard.csrf_for(two)
