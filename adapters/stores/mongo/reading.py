"""Documents back into records: one that does not validate is a damaged store, not an answer.

A document edited by hand, written by another tool or restored from a bad backup can hold
fields the strict domain models refuse. Every read decodes through ``Readers``, which turns
the failure into a ``StoreCorruptedError`` naming the collection and the document's ``_id``
(a server has no file to name) and why, never quoting the stored text.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TypeVar

from eden_memory.adapters.stores.damage import DECODE_ERRORS, reason
from eden_memory.adapters.stores.mongo.codec import IdCodec, decode_document
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.adapters.stores.mongo.documents import (
    blob_from_document,
    fact_from_document,
    reflection_from_document,
    session_from_document,
)
from eden_memory.adapters.stores.mongo.messages import message_from_document
from eden_memory.adapters.stores.mongo.options import CollectionNames
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import StoreCorruptedError
from eden_memory.domain.ids import SessionId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Message, Reflection, SessionState
from eden_memory.domain.scopes import Scope
from eden_memory.ports.stores import FactOrigin

T = TypeVar("T")


class Readers:
    """Each collection's documents as records, checked."""

    def __init__(self, ids: IdCodec, names: CollectionNames) -> None:
        self._ids = ids
        self._names = names

    def fact(self, document: Document) -> Fact:
        return decoded(self._names.facts, document, partial(fact_from_document, ids=self._ids))

    def reflection(self, document: Document) -> Reflection:
        parse = partial(reflection_from_document, ids=self._ids)
        return decoded(self._names.reflections, document, parse)

    def blob(self, document: Document) -> ConsolidatedMemory:
        parse = partial(blob_from_document, ids=self._ids)
        return decoded(self._names.consolidated, document, parse)

    def session(self, document: Document) -> SessionState:
        parse = partial(session_from_document, ids=self._ids)
        return decoded(self._names.sessions, document, parse)

    def origin(self, document: Document) -> FactOrigin:
        """When and in which session a fact read for those fields only was said."""
        return decoded(self._names.facts, document, partial(_origin, ids=self._ids))

    def scope(self, document: Document) -> Scope:
        """The scope of a fact document read for its key fields only."""
        return decoded(self._names.facts, document, lambda d: Scope(d["scope"]))

    def vector(self, document: Document) -> list[float]:
        return decoded(self._names.facts, document, _vector)

    def space(self, document: Document) -> EmbeddingSpace:
        """The store's embedding space, as its ``meta`` document records it."""
        return decoded(self._names.meta, document, _space)

    def revision(self, document: Document) -> int:
        return decoded(self._names.revisions, document, lambda d: _integer(d.get("revision", 0)))

    def message(self, document: Document) -> Message:
        return decoded(self._names.messages, document, message_from_document)

    def plan(self, document: Document) -> str | None:
        """A session's saved formation plan: text, or none."""
        return decoded(self._names.sessions, document, _plan)


def decoded(collection: str, document: Document, parse: Callable[[Document], T]) -> T:
    try:
        return parse(document)
    except DECODE_ERRORS as exc:
        raise corrupted(collection, document.get("_id"), reason(exc)) from exc


def corrupted(collection: str, record: object, why: str) -> StoreCorruptedError:
    return StoreCorruptedError(
        f"the MongoDB collection {collection} is damaged: the document {record!r} "
        f"does not decode: {why}"
    )


def _origin(document: Document, ids: IdCodec) -> FactOrigin:
    data = decode_document(document)
    formed_at = data["formed_at"]
    if not isinstance(formed_at, datetime):
        raise TypeError("its formed_at is not a date")
    session = ids.read(data.get("source_session_id"))
    return FactOrigin(formed_at, None if session is None else SessionId(session))


def _plan(document: Document) -> str | None:
    plan = document.get("formation_plan")
    if plan is not None and not isinstance(plan, str):
        raise TypeError(f"its formation plan is a {type(plan).__name__}, not text")
    return plan


def _vector(document: Document) -> list[float]:
    vector = document["embedding"]
    if not isinstance(vector, list) or not all(
        isinstance(x, int | float) and not isinstance(x, bool) for x in vector
    ):
        raise TypeError("its embedding is not a list of numbers")
    return [float(x) for x in vector]


def _space(document: Document) -> EmbeddingSpace:
    model = document["model"]
    if not isinstance(model, str):
        raise TypeError("its model is not text")
    return EmbeddingSpace(model, _integer(document["dimension"]))


def _integer(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"a counter holds {type(value).__name__}")
    return value
