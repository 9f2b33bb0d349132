"""The clock contract. Subclass ``ClockContract`` and provide the fixture ``clock``."""

from __future__ import annotations

from datetime import timedelta

import pytest

from eden_memory.ports.clock import Clock


class ClockContract:
    @pytest.fixture
    def clock(self) -> Clock:
        raise NotImplementedError("a clock contract subclass must provide `clock`")

    def test_now_is_timezone_aware_utc(self, clock: Clock) -> None:
        now = clock.now()
        assert now.tzinfo is not None
        assert now.utcoffset() == timedelta(0)

    def test_time_does_not_run_backwards(self, clock: Clock) -> None:
        readings = [clock.now() for _ in range(100)]
        assert readings == sorted(readings)
