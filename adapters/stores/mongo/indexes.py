"""Every index the store relies on, as data (documented in ``docs/atlas.md``).

Regular indexes serve each query the store makes; the unique partial index
``fact_active_hash`` is what makes exact duplicates impossible *within one scope key*
among active facts, even under concurrent writers (the seeds' unique (hash, agent)
index would wrongly refuse one sentence for two users). The two Atlas Search indexes
serve ``$vectorSearch`` (with the visibility fields as pre-filters) and ``$search``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.adapters.stores.mongo.options import IdMode, MongoStoreOptions

ACTIVE = {"status": "active"}


@dataclass(frozen=True)
class IndexSpec:
    """A regular index on one of the store's collections (named by role: ``facts``...)."""

    collection: str
    name: str
    keys: tuple[tuple[str, int | str], ...]
    unique: bool = False
    partial: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] | None = None

    def options(self) -> Document:
        extra: Document = {"name": self.name, **(self.extra or {})}
        if self.unique:
            extra["unique"] = True
        if self.partial is not None:
            extra["partialFilterExpression"] = dict(self.partial)
        return extra

    def document(self, collection_name: str) -> Document:
        return {"collection": collection_name, "key": dict(self.keys), **self.options()}


@dataclass(frozen=True)
class SearchIndexSpec:
    """An Atlas Search index: ``type`` is ``vectorSearch`` or ``search``."""

    collection: str
    name: str
    type: str
    definition: Document = field(default_factory=dict)

    def document(self, collection_name: str) -> Document:
        return {
            "collection": collection_name,
            "name": self.name,
            "type": self.type,
            "definition": self.definition,
        }


REGULAR: tuple[IndexSpec, ...] = (
    IndexSpec(
        "facts",
        "fact_active_hash",
        (("agent_id", 1), ("user_id", 1), ("scope", 1), ("content_hash", 1)),
        unique=True,
        partial=ACTIVE,
    ),
    IndexSpec(
        "facts",
        "fact_owner_recent",
        (("agent_id", 1), ("scope", 1), ("user_id", 1), ("status", 1), ("formed_at", -1)),
    ),
    IndexSpec("facts", "fact_agent_recent", (("agent_id", 1), ("formed_at", -1))),
    # The facts written while Atlas's search index may not show them yet (``index_lag``).
    IndexSpec("facts", "fact_agent_written", (("agent_id", 1), ("written_at", -1))),
    IndexSpec(
        "reflections",
        "reflection_buffer",
        (
            ("agent_id", 1),
            ("scope", 1),
            ("user_id", 1),
            ("session_id", 1),
            ("absorbed", 1),
            ("formed_at", 1),
        ),
    ),
    IndexSpec("reflections", "reflection_agent", (("agent_id", 1), ("formed_at", 1))),
    IndexSpec(
        "consolidated",
        "consolidated_key",
        (("agent_id", 1), ("scope", 1), ("user_id", 1), ("session_id", 1)),
        unique=True,
    ),
    IndexSpec("sessions", "session_agent", (("agent_id", 1), ("session_id", 1)), unique=True),
    IndexSpec("sessions", "session_users", (("agent_id", 1), ("user_ids", 1))),
    IndexSpec(
        "sessions",
        "session_cold",
        (("last_activity_at", 1),),
        partial={"pending_messages": {"$gt": 0}},
    ),
    IndexSpec(
        "messages",
        "message_pending",
        (("agent_id", 1), ("session_id", 1), ("formed", 1), ("seq", 1)),
    ),
    IndexSpec("messages", "message_author", (("agent_id", 1), ("author_id", 1))),
    IndexSpec("revisions", "revision_agent", (("agent_id", 1),)),
    IndexSpec(
        "contexts", "context_key", (("agent_id", 1), ("session_id", 1), ("variant", 1)), unique=True
    ),
    IndexSpec("contexts", "context_age", (("agent_id", 1), ("built_at", 1))),
)

# Only where there is no Atlas Search; language "english": MongoDB stems the words (Snowball)
# and drops its stop words, so a query finds the facts holding any form of its words.
TEXT_FALLBACK = IndexSpec(
    "facts", "fact_content_text", (("content", "text"),), extra={"default_language": "english"}
)

VECTOR_FILTERS = ("agent_id", "user_id", "scope", "status", "embedding_model")


def vector_index(dimension: int, options: MongoStoreOptions) -> SearchIndexSpec:
    """Cosine over ``embedding``; the visibility fields as pre-filters inside the stage."""
    if dimension <= 0:
        raise ValueError("the vector index needs the embedder's (positive) dimension")
    vector = {"type": "vector", "path": "embedding", "numDimensions": dimension}
    fields = [{**vector, "similarity": "cosine"}]
    fields += [{"type": "filter", "path": path} for path in VECTOR_FILTERS]
    return SearchIndexSpec(
        "facts", options.search_indexes.vector, "vectorSearch", {"fields": fields}
    )


def text_index(options: MongoStoreOptions) -> SearchIndexSpec:
    """``content`` analysed as English; the filter fields as exact tokens (or ObjectIds).

    ``lucene.english`` drops possessives and stop words and stems with Porter's algorithm,
    as the other stores match words (``keyword``, ``text_terms``); the query is analysed
    alike.
    """
    owner = {"type": "objectId" if options.id_mode is IdMode.OBJECT_ID else "token"}
    fields = {
        "content": {"type": "string", "analyzer": "lucene.english"},
        "agent_id": owner,
        "user_id": owner,
        "scope": {"type": "token"},
        "status": {"type": "token"},
    }
    definition = {"mappings": {"dynamic": False, "fields": fields}}
    return SearchIndexSpec("facts", options.search_indexes.text, "search", definition)


def search_indexes(dimension: int, options: MongoStoreOptions) -> tuple[SearchIndexSpec, ...]:
    return (vector_index(dimension, options), text_index(options))


def contains(theirs: Any, ours: Any) -> bool:
    """``ours`` is part of ``theirs``; Atlas fills in defaults we did not give."""
    if ours is None:
        return theirs is None or theirs == {}
    if isinstance(ours, dict):
        return isinstance(theirs, dict) and all(contains(theirs.get(k), v) for k, v in ours.items())
    if isinstance(ours, list):
        if not isinstance(theirs, list) or len(theirs) != len(ours):
            return False
        return all(any(contains(t, o) for t in theirs) for o in ours)
    return bool(theirs == ours)
