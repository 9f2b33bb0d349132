"""Rows back into records: a row that does not decode is a damaged file, never an answer.

SQLite checks the structure of its pages, not what the rows hold. A byte flipped on disk
inside a row is read back without complaint: JSON that no longer parses or validates, text
that is not UTF-8, a column of another type, a vector blob of the wrong length. Every read
of a row decodes it inside ``decoding``, which turns any such failure into ``Undecodable``
naming the table and the record; the worker that ran the read names the file
(``connection``), so a caller gets a ``StoreCorruptedError`` saying where to look.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from eden_memory.adapters.stores.damage import DECODE_ERRORS, reason
from eden_memory.domain.errors import StoreCorruptedError


class Undecodable(StoreCorruptedError):
    """A row that does not decode, before the worker that read it names the file."""

    def __init__(self, table: str, record: object, why: str) -> None:
        super().__init__(f"the {table} row {record!r} does not decode: {why}")

    def in_file(self, path: Path | None) -> StoreCorruptedError:
        return StoreCorruptedError(f"{damaged(path)}: {self}")


def damaged(path: Path | None) -> str:
    return f"the store file {path} is damaged" if path else "the embedded store is damaged"


@contextmanager
def decoding(table: str, record: object) -> Iterator[None]:
    """Decode one row of ``table`` (``record``: its id or key) inside this block."""
    try:
        yield
    except Undecodable:
        raise
    except DECODE_ERRORS as exc:
        raise Undecodable(table, record, reason(exc)) from exc


def as_int(value: object, table: str, record: object) -> int:
    """A column SQLite should hold as an integer; any other type is damage."""
    if type(value) is not int:
        raise Undecodable(table, record, f"an integer column holds {type(value).__name__}")
    return value


def as_text(value: object, table: str, record: object) -> str:
    """A column SQLite should hold as text (an id, a name); any other type is damage."""
    if not isinstance(value, str):
        raise Undecodable(table, record, f"a text column holds {type(value).__name__}")
    return value


def vector_rows(ids: Sequence[str], blobs: Sequence[object], dim: int) -> npt.NDArray[np.float32]:
    """The stored vectors of ``ids`` as float32 rows of ``dim`` (a read-only view when one)."""
    try:
        flat = np.frombuffer(b"".join(blobs), dtype=np.float32)  # type: ignore[arg-type]
        return flat.reshape(len(blobs), dim)
    except (TypeError, ValueError) as exc:
        for fact_id, blob in zip(ids, blobs, strict=True):
            if not isinstance(blob, bytes):
                raise Undecodable("facts", fact_id, "its vector is not a blob") from exc
            if len(blob) != 4 * dim:
                wrong = f"its vector is {len(blob)} bytes, not {4 * dim}"
                raise Undecodable("facts", fact_id, wrong) from exc
        raise
