"""Per-partition vector files: a cache of the fact rows' vectors that opens in one read.

The fact rows stay the truth; a file is only ever trusted through its row in
``vector_files``, which says, in the same transaction as the facts, which file (its random
token, also in the file's header), in which space, up to which fact stamp and how many of
its bytes are valid. So:

* **a write** appends one chunk to each file of the partitions it touched (``follow``, run
  by ``revisions.Changes.flush`` inside the write transaction) and moves the row. A crash
  before the commit leaves bytes past the valid length, which the next append overwrites.
  A write that only inserted active facts into a partition whose file was current appends
  the rows it holds (``Added``); any other change is read back from the rows;
* **a search** loading a partition reads its file (``load``), then replays the rows and
  tombstones stamped after the file's stamp, as it does for any partition it holds. A file
  that is missing, torn, of another space, or older than the kept tombstones is ignored:
  the partition is read from the rows and written to a new file (``snapshot``), which the
  writer adopts (``adopt``) only if the row still names the file the search saw;
* **a file with more dead rows than live ones** (deletions, edits) is rewritten the same way.

Another process sees the same rows, so any number of processes share the files.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.partition import Matrix, Partition, Rows, unit_rows
from eden_memory.adapters.stores.sqlite.space import read_space
from eden_memory.adapters.stores.sqlite.vector_file import (
    HEADER_BYTES,
    Buffer,
    DamagedFile,
    Layout,
    Log,
    VectorFolder,
    chunk,
    header,
    read_log,
    size,
    writable_ids,
)
from eden_memory.domain.embedding_space import EmbeddingSpace

_WHERE = "agent_id = ? AND scope = ? AND owner = ?"
_COLUMNS = "agent_id, scope, owner, dtype, token, model, dim, seq, bytes, written"


@dataclass(frozen=True)
class FileRow:
    key: KeyCols
    dtype: str
    token: bytes
    model: str
    dim: int
    seq: int  # the partition's fact stamp the valid prefix brings it to
    bytes: int  # the valid prefix
    written: int  # rows in that prefix, live or not

    @property
    def layout(self) -> Layout:
        return Layout(self.token, self.dim, np.dtype(self.dtype).type)


@dataclass
class Added:
    """Active facts a write inserted into one partition, with their float32 rows."""

    ids: list[str] = field(default_factory=list)
    parts: list[Matrix] = field(default_factory=list)

    def extend(self, ids: list[str], rows: Matrix) -> None:
        self.ids.extend(ids)
        self.parts.append(rows)

    def rows(self, dtype: str) -> Rows:
        """Unit rows in the file's type, as ``_changes_since`` would read them back."""
        joined = np.concatenate(self.parts) if len(self.parts) > 1 else self.parts[0].copy()
        return unit_rows(joined).astype(np.dtype(dtype).type)


@dataclass(frozen=True)
class Snapshot:
    """A partition written to a temporary file by a search, for the writer to adopt."""

    temp: Path
    row: FileRow
    seen: bytes | None  # the token of the file the search found (None: no usable row)


def file_path(folder: VectorFolder, key: KeyCols, dtype: str) -> Path:
    digest = hashlib.sha256("\x00".join(key).encode()).hexdigest()[:40]
    return folder.path / f"{digest}.{dtype}"


def file_row(conn: sqlite3.Connection, key: KeyCols, dtype: str) -> FileRow | None:
    found = conn.execute(
        f"SELECT {_COLUMNS} FROM vector_files WHERE {_WHERE} AND dtype = ?", (*key, dtype)
    ).fetchone()
    return None if found is None else FileRow(tuple(found[:3]), *found[3:])


def load(
    conn: sqlite3.Connection,
    folder: VectorFolder,
    key: KeyCols,
    space: EmbeddingSpace,
    seq: int,
) -> tuple[FileRow | None, Log | None]:
    """The partition as its file holds it, with the row; no log if the file is unusable.

    ``seq``: the partition's stamp now, in the caller's read transaction.
    """
    row = file_row(conn, key, folder.dtype_name)
    if row is None or not _usable(conn, row, space, seq):
        return row, None
    try:
        return row, read_log(file_path(folder, key, row.dtype), row.layout, row.bytes, row.written)
    except (OSError, DamagedFile, UnicodeDecodeError, ValueError):
        return row, None


def snapshot(
    folder: VectorFolder, key: KeyCols, part: Partition, space: EmbeddingSpace, seen: bytes | None
) -> Snapshot | None:
    """Write ``part`` (synced to its stamp) to a temporary file; None if it cannot be."""
    if not part.size or not writable_ids(part.ids):
        return None
    row = _new_row(folder, key, space, part.synced_seq)
    temp = file_path(folder, key, row.dtype).with_suffix(f".{row.token.hex()}.tmp")
    pieces = [header(row.layout), *chunk(part.synced_seq, [], part.ids, part.matrix)]
    try:
        folder.path.mkdir(parents=True, exist_ok=True)
        with temp.open("wb") as f:
            for piece in pieces:
                f.write(piece)
    except OSError:
        temp.unlink(missing_ok=True)
        return None
    return Snapshot(temp, replace(row, bytes=size(pieces), written=part.size), seen)


def adopt(conn: sqlite3.Connection, folder: VectorFolder, snap: Snapshot) -> bool:
    """Put a search's snapshot in place, caught up to now, unless the file changed meanwhile."""
    row = snap.row
    try:
        with transaction(conn, write=True):
            current = file_row(conn, row.key, row.dtype)
            now = _partition_seq(conn, row.key)
            if (current.token if current else None) != snap.seen or not _usable(
                conn, row, read_space(conn), now
            ):
                return False
            caught = _catch_up(conn, snap.temp, row, now)
            if caught is None:
                return False
            os.replace(snap.temp, file_path(folder, row.key, row.dtype))
            _save(conn, caught)
            return True
    finally:
        snap.temp.unlink(missing_ok=True)  # gone already when it was put in place


def follow(
    conn: sqlite3.Connection,
    folder: VectorFolder,
    before: Mapping[KeyCols, int],
    seq: int,
    added: Mapping[KeyCols, Added] | None = None,
    space: EmbeddingSpace | None = None,
) -> None:
    """Append this transaction's changes to the files of the partitions it touched.

    ``before``: each touched partition's stamp before the transaction (0: it never held a
    fact, so its file starts now, empty, in this store's type). ``added``: the partitions
    this transaction only inserted active facts into, with those facts' rows. ``space``:
    the store's, if the caller knows it. Call inside the transaction.
    """
    added = added or {}
    for key, old_seq in before.items():
        rows = _rows_of(conn, key)
        if not rows and old_seq:
            continue
        space = space or read_space(conn)
        if space is None:
            continue
        if old_seq == 0 and not any(r.dtype == folder.dtype_name for r in rows):
            rows.append(_create(conn, folder, key, space))
        new = added.get(key)
        if new is None and not _holds_active(conn, key):  # emptied: no vector stays behind
            for row in rows:
                _drop(conn, folder, row)
            continue
        for row in rows:
            if new is not None and row.seq == old_seq and _usable(conn, row, space, old_seq):
                _follow_added(conn, folder, row, new, seq)
            else:
                _follow_one(conn, folder, row, space, (old_seq, seq))


def _follow_one(
    conn: sqlite3.Connection,
    folder: VectorFolder,
    row: FileRow,
    space: EmbeddingSpace,
    seqs: tuple[int, int],
) -> None:
    """``seqs``: the partition's stamp before this transaction, and this transaction's."""
    path = file_path(folder, row.key, row.dtype)
    usable = _usable(conn, row, space, seqs[0])
    caught = _catch_up(conn, path, row, seqs[1]) if usable else None
    if caught is None:
        _drop(conn, folder, row)
    else:
        _save(conn, caught)


def _follow_added(
    conn: sqlite3.Connection, folder: VectorFolder, row: FileRow, new: Added, seq: int
) -> None:
    """Append inserted facts to a file that was current before them: no read back."""
    path = file_path(folder, row.key, row.dtype)
    moved = _append(path, row, seq, ([], new.ids, new.rows(row.dtype)))
    if moved is None:
        _drop(conn, folder, row)
    else:
        _save(conn, moved)


def _drop(conn: sqlite3.Connection, folder: VectorFolder, row: FileRow) -> None:
    """Forget a file: its row goes, and the file (a search reads the rows next time)."""
    conn.execute(f"DELETE FROM vector_files WHERE {_WHERE} AND dtype = ?", (*row.key, row.dtype))
    with contextlib.suppress(OSError):
        file_path(folder, row.key, row.dtype).unlink(missing_ok=True)


def _holds_active(conn: sqlite3.Connection, key: KeyCols) -> bool:
    found = conn.execute(
        f"SELECT EXISTS (SELECT 1 FROM facts WHERE {_WHERE} AND status = 'active')", key
    ).fetchone()
    return bool(found[0])


def _create(
    conn: sqlite3.Connection, folder: VectorFolder, key: KeyCols, space: EmbeddingSpace
) -> FileRow:
    """An empty file for a new partition (written whole, then renamed into place)."""
    row = _new_row(folder, key, space, 0)
    path = file_path(folder, key, row.dtype)
    temp = path.with_suffix(f".{row.token.hex()}.tmp")
    try:
        folder.path.mkdir(parents=True, exist_ok=True)
        temp.write_bytes(header(row.layout))
        os.replace(temp, path)
    except OSError:
        temp.unlink(missing_ok=True)
    return row  # if the file could not be made, following it fails and drops the row


def _new_row(folder: VectorFolder, key: KeyCols, space: EmbeddingSpace, seq: int) -> FileRow:
    token = secrets.token_bytes(16)
    dim = space.dimension
    return FileRow(key, folder.dtype_name, token, space.model, dim, seq, HEADER_BYTES, 0)


def _catch_up(conn: sqlite3.Connection, path: Path, row: FileRow, seq: int) -> FileRow | None:
    """Append what happened to the partition after ``row.seq`` up to ``seq``; the moved row,
    or None when the file cannot take it (missing, shorter than its row, unwritable ids)."""
    return _append(path, row, seq, _changes_since(conn, row))


def _append(
    path: Path, row: FileRow, seq: int, changes: tuple[list[str], list[str], Rows]
) -> FileRow | None:
    """Write ``changes`` (removed ids, written ids, their rows) as one chunk at the end of the
    row's valid bytes; the moved row, or None when the file cannot take them."""
    removed, ids, rows = changes
    if not writable_ids(removed) or not writable_ids(ids):
        return None
    pieces: list[Buffer] = chunk(seq, removed, ids, rows) if removed or ids else []
    try:
        _write_at(path, row.bytes, pieces)
    except (OSError, DamagedFile):
        return None
    return replace(row, seq=seq, bytes=row.bytes + size(pieces), written=row.written + len(ids))


def _write_at(path: Path, offset: int, pieces: list[Buffer]) -> None:
    """Write ``pieces`` from ``offset`` on, with plain system calls (a write per call adds
    one of these: Python's buffered file objects cost more than the write itself)."""
    fd = os.open(path, os.O_WRONLY)
    try:
        if os.fstat(fd).st_size < offset:
            raise DamagedFile("the file is shorter than its row says")
        for piece in pieces:
            while piece:
                done = os.pwrite(fd, piece, offset)
                offset += done
                piece = memoryview(piece)[done:]
    finally:
        os.close(fd)


def _changes_since(conn: sqlite3.Connection, row: FileRow) -> tuple[list[str], list[str], Rows]:
    """As ``vector_index`` replays them: tombstones leave, then each row written after the
    stamp is in (active, of the file's space) or out."""
    since = (*row.key, row.seq)
    removed = [
        r[0]
        for r in conn.execute(
            f"SELECT fact_id FROM fact_tombstones WHERE {_WHERE} AND seq > ?", since
        )
    ]
    ids: list[str] = []
    blobs: list[bytes] = []
    for fact_id, status, model, dim, blob in conn.execute(
        f"SELECT id, status, vec_model, vec_dim, vector FROM facts WHERE {_WHERE} AND seq > ?",
        since,
    ):
        if status == "active" and model == row.model and dim == row.dim:
            ids.append(fact_id)
            blobs.append(blob)
        else:
            removed.append(fact_id)
    flat = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), row.dim)
    return removed, ids, unit_rows(flat.copy()).astype(np.dtype(row.dtype).type)


def _usable(conn: sqlite3.Connection, row: FileRow, space: EmbeddingSpace | None, now: int) -> bool:
    """Of the store's space, and either current (the partition's stamp is still ``now``) or
    no older than the kept tombstones (the removals since are known)."""
    if space is None or (row.model, row.dim) != (space.model, space.dimension):
        return False
    if row.seq == now:
        return True
    (floor,) = conn.execute("SELECT value FROM counters WHERE name = 'tombstone_floor'").fetchone()
    return row.seq >= int(floor)


def _partition_seq(conn: sqlite3.Connection, key: KeyCols) -> int:
    found = conn.execute(f"SELECT fact_seq FROM scope_state WHERE {_WHERE}", key).fetchone()
    return int(found[0]) if found else 0


def _rows_of(conn: sqlite3.Connection, key: KeyCols) -> list[FileRow]:
    return [
        FileRow(tuple(r[:3]), *r[3:])
        for r in conn.execute(f"SELECT {_COLUMNS} FROM vector_files WHERE {_WHERE}", key)
    ]


def _save(conn: sqlite3.Connection, row: FileRow) -> None:
    conn.execute(
        f"INSERT OR REPLACE INTO vector_files ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (*row.key, row.dtype, row.token, row.model, row.dim, row.seq, row.bytes, row.written),
    )
