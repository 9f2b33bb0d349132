"""Progress of long work on standard error: counts, rate and time left.

One line at most every ``every`` seconds and one at the end, so a piped log stays short and
standard output stays the command's own (an export to stdout is not disturbed).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Progress:
    label: str
    total: int | None = None
    every: float = 1.0
    done: int = 0
    clock: Callable[[], float] = time.monotonic
    started: float = field(init=False)
    shown: float = field(init=False)

    def __post_init__(self) -> None:
        self.started = self.shown = self.clock()

    def advance(self, count: int) -> None:
        self.done += count
        now = self.clock()
        if now - self.shown >= self.every:
            self.shown = now
            sys.stderr.write(self.line(now) + "\n")
            sys.stderr.flush()

    def finish(self) -> None:
        sys.stderr.write(self.line(self.clock(), final=True) + "\n")
        sys.stderr.flush()

    def line(self, now: float, final: bool = False) -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        count = f"{self.done:,}" if self.total is None else f"{self.done:,}/{self.total:,}"
        text = f"{self.label}: {count} ({rate:,.0f}/s, {_span(elapsed)} elapsed"
        if final:
            return text + ", done)"
        if self.total and rate > 0:
            text += f", ETA {_span((self.total - self.done) / rate)}"
        return text + ")"


def _span(seconds: float) -> str:
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    minutes, secs = divmod(whole, 60)
    return f"{minutes}m{secs:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"
