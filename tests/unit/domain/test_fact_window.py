"""What an empty or short context says about the facts its recent list leaves out."""

from __future__ import annotations

import pytest

from eden_memory.domain.fact_window import FactWindow, hours
from eden_memory.domain.settings import FactSettings

DEFAULT = FactSettings()


def test_an_empty_recent_list_over_older_facts_says_search_finds_them() -> None:
    note = FactWindow(shown=0, visible=1381, settings=DEFAULT).note()
    assert note == (
        "no facts in the recent window (the newest 40, formed in the last 7 days); "
        "1,381 older facts are found by search"
    )


def test_one_older_fact_is_said_in_the_singular() -> None:
    note = FactWindow(0, 1, DEFAULT).note()
    assert note is not None
    assert note.endswith("; 1 older fact is found by search")


def test_a_full_recent_list_says_how_many_of_the_facts_it_shows() -> None:
    note = FactWindow(40, 1421, DEFAULT).note()
    assert note == (
        "the recent window shows 40 of 1,421 facts (the newest 40, formed in the last 7 days); "
        "the other 1,381 are found by search"
    )


def test_nothing_is_said_when_the_list_shows_every_fact_or_there_is_none() -> None:
    assert FactWindow(3, 3, DEFAULT).note() is None
    assert FactWindow(0, 0, DEFAULT).note() is None


@pytest.mark.parametrize("settings", [FactSettings(fifo_enabled=False), FactSettings(fifo_limit=0)])
def test_a_list_that_is_off_says_so_rather_than_older(settings: FactSettings) -> None:
    assert FactWindow(0, 12, settings).note() == (
        "the recent-facts list is off; 12 facts are found by search"
    )


@pytest.mark.parametrize(
    ("value", "said"),
    [(168.0, "7 days"), (24.0, "1 day"), (36.0, "36 hours"), (1.0, "1 hour"), (0.5, "0.5 hours")],
)
def test_a_window_is_said_in_days_when_it_is_whole_days(value: float, said: str) -> None:
    assert hours(value) == said
