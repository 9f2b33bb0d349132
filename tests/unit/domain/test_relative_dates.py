"""Relative dates in a fact become the day they name, counted from the day they were said."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.relative_dates import (
    has_relative_date,
    resolve_relative_dates,
    spoken_day,
)
from tests.unit.domain.builders import PROPERTY

MONDAY = date(2023, 5, 8)
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
DAYS = st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31))


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "Melanie ran a charity race last Saturday.",
            "Melanie ran a charity race on Saturday 6 May 2023.",
        ),
        ("Alice moved to Lyon yesterday", "Alice moved to Lyon on Sunday 7 May 2023"),
        ("Bob has been ill since yesterday", "Bob has been ill since Sunday 7 May 2023"),
        ("Nate saw the film 3 days ago", "Nate saw the film on Friday 5 May 2023"),
        ("Nate moved two weeks ago", "Nate moved around Monday 24 April 2023"),
        ("Jon opens his studio next Friday", "Jon opens his studio on Friday 12 May 2023"),
        ("Ana slept badly last night", "Ana slept badly on the night of Sunday 7 May 2023"),
        ("Today Ana starts her new job", "On Monday 8 May 2023 Ana starts her new job"),
        ("Ana flies to Oslo tomorrow", "Ana flies to Oslo on Tuesday 9 May 2023"),
        ("Ana met Bo this past Monday", "Ana met Bo on Monday 1 May 2023"),
        ("Ana met Bo the day before yesterday", "Ana met Bo on Saturday 6 May 2023"),
    ],
)
def test_relative_dates_become_the_day_they_name(said: str, meant: str) -> None:
    assert resolve_relative_dates(said, MONDAY) == meant


@pytest.mark.parametrize(
    "vague",
    [
        "Ana recently moved to Oslo",
        "Ana moved last week",  # which day is not said: left as it is
        "Yesterday's meeting was moved",  # a possessive is not a date to rewrite
        "Ana calls every Saturday",
        "Ana's lastname is Todayson",
    ],
)
def test_what_names_no_single_day_is_left_as_it_is(vague: str) -> None:
    assert not has_relative_date(vague)
    assert resolve_relative_dates(vague, MONDAY) == vague


@PROPERTY
@given(DAYS, st.sampled_from(WEEKDAYS))
def test_last_weekday_is_that_weekday_in_the_week_before_the_day_said(
    said_on: date, weekday: str
) -> None:
    resolved = resolve_relative_dates(f"Ana left last {weekday}", said_on)
    back = [said_on - timedelta(days=n) for n in range(1, 8)]
    [meant] = [d for d in back if WEEKDAYS[d.weekday()] == weekday]
    assert resolved == f"Ana left on {spoken_day(meant)}"


@PROPERTY
@given(DAYS, st.sampled_from(WEEKDAYS))
def test_next_weekday_is_that_weekday_in_the_week_after_the_day_said(
    said_on: date, weekday: str
) -> None:
    resolved = resolve_relative_dates(f"Ana leaves next {weekday}", said_on)
    ahead = [said_on + timedelta(days=n) for n in range(1, 8)]
    [meant] = [d for d in ahead if WEEKDAYS[d.weekday()] == weekday]
    assert resolved == f"Ana leaves on {spoken_day(meant)}"


@PROPERTY
@given(DAYS, st.integers(min_value=1, max_value=99))
def test_days_ago_count_back_from_the_day_said(said_on: date, n: int) -> None:
    resolved = resolve_relative_dates(f"Ana arrived {n} days ago", said_on)
    assert resolved == f"Ana arrived on {spoken_day(said_on - timedelta(days=n))}"


@PROPERTY
@given(st.text(alphabet=st.characters(categories=["Lu", "Ll", "Zs", "Nd"]), max_size=60), DAYS)
def test_a_text_without_a_relative_date_is_unchanged(text: str, said_on: date) -> None:
    if not has_relative_date(text):
        assert resolve_relative_dates(text, said_on) == text
    else:
        assert resolve_relative_dates(text, said_on) != text
