"""Clocks: the real one, and one that tests move by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from eden_memory.domain.errors import InvalidInputError


class SystemClock:
    """Wall-clock time in UTC, the only place the library reads the system time."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that stands still until told otherwise, so time-dependent rules are testable.

    Triggers, cold sessions, claim expiry and cache TTLs all read ``now()``; a test sets the
    instant it wants instead of sleeping.
    """

    def __init__(self, start: datetime) -> None:
        self._now = _utc(start)

    def now(self) -> datetime:
        return self._now

    def set(self, t: datetime) -> None:
        self._now = _utc(t)

    def advance(
        self,
        *,
        days: float = 0,
        seconds: float = 0,
        microseconds: float = 0,
        milliseconds: float = 0,
        minutes: float = 0,
        hours: float = 0,
        weeks: float = 0,
    ) -> datetime:
        """Move forward (or back, with negative amounts) and return the new instant."""
        self._now += timedelta(
            days=days,
            seconds=seconds,
            microseconds=microseconds,
            milliseconds=milliseconds,
            minutes=minutes,
            hours=hours,
            weeks=weeks,
        )
        return self._now


def _utc(t: datetime) -> datetime:
    if t.tzinfo is None or t.utcoffset() is None:
        raise InvalidInputError("FakeClock needs a timezone-aware datetime")
    return t.astimezone(UTC)
