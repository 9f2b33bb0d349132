"""The clock contract, run against both clocks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from eden_memory.adapters.clocks import FakeClock, SystemClock
from eden_memory.ports.clock import Clock
from tests.contract.clock_contract import ClockContract


class TestSystemClock(ClockContract):
    @pytest.fixture
    def clock(self) -> Clock:
        return SystemClock()


class TestFakeClock(ClockContract):
    @pytest.fixture
    def clock(self) -> Clock:
        return FakeClock(datetime(2026, 1, 15, 12, 0, tzinfo=UTC))
