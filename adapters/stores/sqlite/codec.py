"""How values are laid out in rows: owners, times as integers, vectors as float32 blobs."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.scopes import ScopeKey

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)

# (agent_id, scope, owner): how every table keys a scope key.
KeyCols = tuple[str, str, str]


def key_cols(key: ScopeKey) -> KeyCols:
    return (key.agent_id, key.scope.value, owner_of(key.user_id or key.session_id))


def owner_of(owner: str | None) -> str:
    return owner or ""


def to_us(moment: datetime) -> int:
    """Microseconds since the epoch: integers compare and index exactly, ISO strings don't."""
    if moment.tzinfo is None:
        raise InvalidInputError("times must be timezone-aware")
    return (moment - EPOCH) // _MICRO


def from_us(value: int | None) -> datetime | None:
    return None if value is None else EPOCH + timedelta(microseconds=value)


def vector_blob(vector: Sequence[float]) -> bytes:
    return finite(vector).tobytes()


def finite(vector: Sequence[float] | Sequence[Sequence[float]]) -> npt.NDArray[np.float32]:
    """The vector (or rows of vectors) as float32; NaN or infinity would poison every cosine
    it takes part in."""
    with np.errstate(over="ignore"):
        array = np.asarray(vector, dtype=np.float32)
    if not np.isfinite(array).all():
        raise InvalidInputError("a vector has NaN or infinite components (or is out of range)")
    return array


def placeholders(count: int) -> str:
    return ",".join("?" * count)


def chunks(values: Sequence[str], size: int = 500) -> list[Sequence[str]]:
    """Split long id lists: SQLite caps the number of parameters of one statement."""
    return [values[i : i + size] for i in range(0, len(values), size)]


def rows_by_ids(conn: sqlite3.Connection, sql: str, ids: Sequence[str]) -> list[Any]:
    """Run ``sql`` (which contains one ``{ids}`` slot) for every chunk of ids."""
    out: list[Any] = []
    for part in chunks(ids):
        out.extend(conn.execute(sql.format(ids=placeholders(len(part))), tuple(part)))
    return out
