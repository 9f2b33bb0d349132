"""The time a question names, and raising the facts said then."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.ranking import FusedHit
from eden_memory.domain.temporal import (
    TimeFilter,
    boost_in_time,
    time_named,
    without_relative_time,
)
from tests.unit.domain.builders import PROPERTY

NOW = datetime(2026, 11, 24, 15, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("question", "inside", "outside"),
    [
        ("what did I do yesterday?", datetime(2026, 11, 23, 20, tzinfo=UTC), NOW),
        (
            "who called last week",
            datetime(2026, 11, 18, tzinfo=UTC),
            datetime(2026, 11, 24, tzinfo=UTC),
        ),
        (
            "what happened this month",
            datetime(2026, 11, 2, tzinfo=UTC),
            datetime(2026, 10, 31, tzinfo=UTC),
        ),
        (
            "plans from last month",
            datetime(2026, 10, 31, tzinfo=UTC),
            datetime(2026, 11, 1, tzinfo=UTC),
        ),
        ("trips last year", datetime(2025, 6, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)),
        (
            "When did Melanie go camping in June?",
            datetime(2023, 6, 20, tzinfo=UTC),
            datetime(2023, 7, 1, tzinfo=UTC),
        ),
        (
            "the budget in May 2023",
            datetime(2023, 5, 9, tzinfo=UTC),
            datetime(2024, 5, 9, tzinfo=UTC),
        ),
        (
            "what did we decide in 2022",
            datetime(2022, 12, 31, tzinfo=UTC),
            datetime(2023, 1, 1, tzinfo=UTC),
        ),
        (
            "a pride parade during the summer",
            datetime(2023, 8, 1, tzinfo=UTC),
            datetime(2023, 9, 1, tzinfo=UTC),
        ),
    ],
)
def test_a_question_naming_a_time_covers_that_time_only(
    question: str, inside: datetime, outside: datetime
) -> None:
    named = time_named(question, NOW)
    assert named is not None
    assert named.covers(inside)
    assert not named.covers(outside)


@pytest.mark.parametrize(
    "question",
    ["What is my email?", "May I ask where Bob works?", "you may call me later", "Who is 42?"],
)
def test_a_question_naming_no_time_is_left_alone(question: str) -> None:
    assert time_named(question, NOW) is None


def hits(n: int) -> list[FusedHit]:
    return [FusedHit(f"f{i}", 1.0 - i / (2 * n)) for i in range(n)]


def test_facts_said_in_the_named_time_rise_by_the_factor() -> None:
    june = TimeFilter(months=frozenset({6}))
    said = {"f0": datetime(2023, 5, 1, tzinfo=UTC), "f1": datetime(2023, 6, 2, tzinfo=UTC)}
    boosted = boost_in_time([FusedHit("f0", 0.8), FusedHit("f1", 0.7)], june, said, 0.25)
    assert [(h.id, h.score) for h in boosted] == [("f1", 0.875), ("f0", 0.8)]


@PROPERTY
@given(st.integers(1, 20), st.sets(st.integers(0, 19)), st.floats(0, 2))
def test_boosting_keeps_every_hit_and_never_lowers_one(
    n: int, in_time: set[int], factor: float
) -> None:
    original = hits(n)
    named = TimeFilter(start=NOW - timedelta(days=1), end=NOW)
    said = {
        h.id: NOW - timedelta(hours=1) if i in in_time else NOW - timedelta(days=9)
        for i, h in enumerate(original)
    }
    boosted = boost_in_time(original, named, said, factor)
    assert sorted(h.id for h in boosted) == sorted(h.id for h in original)
    before = {h.id: h.score for h in original}
    assert all(h.score >= before[h.id] for h in boosted)
    assert [h.score for h in boosted] == sorted((h.score for h in boosted), reverse=True)


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("What did Maria share on 16 June, 2023?", datetime(2023, 6, 16, tzinfo=UTC)),
        ("the painting shown on October 13, 2023", datetime(2023, 10, 13, tzinfo=UTC)),
        ("what happened on the 3rd of May 2023", datetime(2023, 5, 3, tzinfo=UTC)),
        ("notes from Oct. 1st, 2022", datetime(2022, 10, 1, tzinfo=UTC)),
        ("the 2024-02-29 meeting", datetime(2024, 2, 29, tzinfo=UTC)),
    ],
)
def test_a_calendar_date_names_that_day_give_or_take_one(question: str, day: datetime) -> None:
    named = time_named(question, NOW)
    assert named is not None
    assert named.day
    assert named.covers(day + timedelta(hours=13))
    assert named.covers(day - timedelta(hours=2))  # the evening before, in some time zone
    assert named.covers(day + timedelta(days=1, hours=23))
    assert not named.covers(day - timedelta(days=1, hours=1))
    assert not named.covers(day + timedelta(days=2))


@pytest.mark.parametrize("question", ["31 February 2023 plans", "in May 2023", "June 2023"])
def test_a_date_that_is_no_day_or_a_month_alone_is_not_a_day(question: str) -> None:
    named = time_named(question, NOW)
    assert named is not None
    assert not named.day


@given(st.text(max_size=60))
def test_the_keyword_side_loses_only_relative_times(text: str) -> None:
    stripped = without_relative_time(text)
    assert set(re.findall(r"\w+", stripped)) <= set(re.findall(r"\w+", text))
    for phrase in ("last week", "this month", "yesterday", "today"):
        if phrase not in text.lower():
            continue
        assert phrase not in stripped.lower() or stripped == text


def test_relative_times_leave_the_keyword_query() -> None:
    assert (
        without_relative_time("where did Alice go hiking last week") == "where did Alice go hiking"
    )
    assert without_relative_time("What did I eat Yesterday?") == "What did I eat ?"
    assert without_relative_time("in May 2023") == "in May 2023"  # dates stay: facts hold them
    assert without_relative_time("last week") == "last week"  # nothing else left
