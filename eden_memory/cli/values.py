"""Checks the command line's own types leave out: a float option must be a finite number.

Click reads ``nan`` and ``inf`` as floats, and a ``nan`` passes any range (every comparison
with it is false); ``timedelta(hours=nan)`` then fails with a traceback.
"""

from __future__ import annotations

import math

import typer


def finite(value: float) -> float:
    """The option's value, if it is a finite number; a usage error otherwise."""
    if not math.isfinite(value):
        raise typer.BadParameter(f"must be a finite number, not {value}")
    return value
