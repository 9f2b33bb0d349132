"""Time, passed in rather than read, so every rule can be tested at any instant."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class Clock(Protocol):
    """What time it is. An adapter must return an aware datetime in UTC (stored times,
    claim expiries and idle checks are compared with it); tests pass a fake to fix it."""

    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...
