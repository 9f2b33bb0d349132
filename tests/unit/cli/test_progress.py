"""Progress lines: counts, rate and time left, at most one a second, and one at the end."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.cli.progress import Progress


class Ticks:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_line_has_the_count_rate_and_eta(capsys: pytest.CaptureFixture[str]) -> None:
    ticks = Ticks()
    progress = Progress("add-facts", total=5000, clock=ticks)
    ticks.now += 10
    progress.advance(1000)  # 100/s, 4,000 left: 40 s
    ticks.now += 0.5
    progress.advance(50)  # under a second since the last line: not shown
    progress.finish()
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "add-facts: 1,000/5,000 (100/s, 10s elapsed, ETA 40s)",
        "add-facts: 1,050/5,000 (100/s, 10s elapsed, done)",
    ]


@given(seconds=st.floats(min_value=0, max_value=1e6))
def test_an_eta_is_never_negative_and_reads_as_a_span(seconds: float) -> None:
    ticks = Ticks()
    progress = Progress("x", total=10, clock=ticks)
    ticks.now += seconds + 1e-3
    progress.done = 5
    line = progress.line(ticks.now)
    assert "ETA -" not in line
    assert line.startswith("x: 5/10 (")
