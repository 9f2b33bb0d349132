"""FakeClock: stands still, moves when told, speaks UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from eden_memory.adapters.clocks import FakeClock, SystemClock
from eden_memory.domain.errors import InvalidInputError

START = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)


def test_a_fake_clock_stands_still_until_moved() -> None:
    clock = FakeClock(START)
    assert clock.now() == clock.now() == START


def test_advance_moves_by_timedelta_amounts_and_returns_the_new_instant() -> None:
    clock = FakeClock(START)
    assert clock.advance(minutes=10, seconds=5) == START + timedelta(minutes=10, seconds=5)
    assert clock.advance(hours=-1) == START + timedelta(minutes=-50, seconds=5)


def test_set_jumps_to_an_instant_converted_to_utc() -> None:
    clock = FakeClock(START)
    paris = timezone(timedelta(hours=1))
    clock.set(datetime(2026, 3, 1, 9, 0, tzinfo=paris))
    assert clock.now() == datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
    assert clock.now().tzinfo is UTC


def test_naive_times_are_refused() -> None:
    with pytest.raises(InvalidInputError):
        FakeClock(datetime(2026, 1, 1))
    with pytest.raises(InvalidInputError):
        FakeClock(START).set(datetime(2026, 1, 1))


def test_the_system_clock_reads_the_current_time() -> None:
    before = datetime.now(UTC)
    assert before <= SystemClock().now() <= datetime.now(UTC)
