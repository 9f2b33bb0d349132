"""What the store's parts share: three workers, each one connection on one thread.

* the writer runs every write (``BEGIN IMMEDIATE`` transactions, one at a time);
* the reader runs plain reads and keyword search;
* the searcher runs semantic search and alone owns the in-memory vector index.

In WAL mode readers never wait for the writer, so a search is never stuck behind a write
that waits for another process's lock; and a hybrid search's semantic and keyword halves,
started together by the application, run in parallel (sqlite3 and numpy release the GIL).
"""

from __future__ import annotations

from eden_memory.adapters.stores.sqlite.connection import Worker
from eden_memory.adapters.stores.sqlite.vector_index import VectorIndex


class StoreBase:
    _writer: Worker
    _reader: Worker
    _searcher: Worker
    _index: VectorIndex
