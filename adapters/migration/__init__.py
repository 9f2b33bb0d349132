"""Adapters for the v1 migration: the MongoDB source reader and the file run journal.

The reader needs the ``mongo`` extra; it is loaded on first use so that the journal (and the
CLI that imports it) works without pymongo installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eden_memory.adapters.migration.journal import JsonFileJournal

if TYPE_CHECKING:
    from eden_memory.adapters.migration.mongo_source import MongoV1Source

__all__ = ["JsonFileJournal", "MongoV1Source"]


def __getattr__(name: str) -> object:
    if name == "MongoV1Source":
        from eden_memory.adapters.migration.mongo_source import MongoV1Source

        return MongoV1Source
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
