"""The vector type the store ports share: facts are written with one, rankings take one."""

from __future__ import annotations

from collections.abc import Sequence

Vector = Sequence[float]
