"""Adapters for the v1 migration: the MongoDB source reader and the file run journal."""

from eden_memory.adapters.migration.journal import JsonFileJournal
from eden_memory.adapters.migration.mongo_source import MongoV1Source

__all__ = ["JsonFileJournal", "MongoV1Source"]
