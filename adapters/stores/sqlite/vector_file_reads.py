"""The searcher's side of the vector files: open a partition from its file, or save it anew.

A search loads a partition from its file when the file's row vouches for it (``load``);
when it had to read the partition from the fact rows instead (or the file is mostly dead
rows), it writes what it holds to a temporary file (``snapshot``) after answering. It
never moves a ``vector_files`` row: only the writer does that (``vector_file_writes``), so
this module reads rows and writes temporary files only, and imports nothing of the writer's.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.adapters.stores.sqlite.partition import Partition
from eden_memory.adapters.stores.sqlite.vector_file import (
    DamagedFile,
    Log,
    VectorFolder,
    chunk,
    header,
    link,
    read_log,
    size,
    writable_ids,
)
from eden_memory.adapters.stores.sqlite.vector_file_rows import (
    FileRow,
    Snapshot,
    file_path,
    file_row,
    new_row,
    usable,
)
from eden_memory.domain.embedding_space import EmbeddingSpace


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
    if row is None or not usable(conn, row, space, seq):
        return row, None
    try:
        path = file_path(folder, key, row.dtype)
        return row, read_log(path, row.layout, row.bytes, row.written, row.digest)
    except (OSError, DamagedFile, UnicodeDecodeError, ValueError):
        return row, None


def snapshot(
    folder: VectorFolder, key: KeyCols, part: Partition, space: EmbeddingSpace, seen: bytes | None
) -> Snapshot | None:
    """Write ``part`` (synced to its stamp) to a temporary file; None if it cannot be."""
    if not part.size or not writable_ids(part.ids):
        return None
    row = new_row(folder, key, space, part.synced_seq)
    temp = file_path(folder, key, row.dtype).with_suffix(f".{row.token.hex()}.tmp")
    entry = chunk(part.synced_seq, [], part.ids, part.matrix)
    pieces = [header(row.layout), *entry]
    try:
        folder.path.mkdir(parents=True, exist_ok=True)
        with temp.open("wb") as f:
            for piece in pieces:
                f.write(piece)
    except OSError:
        temp.unlink(missing_ok=True)
        return None
    written = replace(row, bytes=size(pieces), written=part.size, digest=link(row.digest, entry))
    return Snapshot(temp, written, seen)
