"""Records as documents and back: what each collection holds, field by field.

A document is the record's own fields (times exact, see ``codec``), host ids in the
configured id mode, and a few fields of the store's own (``embedding`` on facts, counters
and claim tags on sessions and messages). Reading strips the store's fields again, so the
strict domain models accept the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from eden_memory.adapters.stores.mongo.codec import IdCodec, decode_document, encode_document
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection, SessionState
from eden_memory.domain.profile import SessionProfile
from eden_memory.domain.scopes import ScopeKey

_FACT_OWNERS = ("agent_id", "user_id", "source_session_id")
# When the server last wrote a fact's content or vector (``$currentDate``: the server's
# clock, not the conversation's time): what the search merges while Atlas's index lags.
WRITTEN_AT = "written_at"
_REFLECTION_OWNERS = ("agent_id", "user_id", "session_id", "source_session_id")
_BLOB_OWNERS = ("agent_id", "user_id", "session_id")
# A session document keeps its profile's fields at the top level, beside the state's own.
PROFILE_FIELDS = tuple(f.name for f in fields(SessionProfile))
STATE_FIELDS = frozenset(SessionState.model_fields) - {"profile"}


def _owners(data: dict[str, Any], fields: Sequence[str], ids: IdCodec) -> None:
    for name in fields:
        data[name] = ids.maybe_owner(data.get(name), name)


def _read_owners(data: dict[str, Any], fields: Sequence[str], ids: IdCodec) -> None:
    for name in fields:
        data[name] = ids.read(data.get(name))


def fact_document(fact: Fact, ids: IdCodec, vector: Sequence[float] | None = None) -> Document:
    data = fact.model_dump()
    data["_id"] = ids.record(data.pop("id"), "fact id")
    _owners(data, _FACT_OWNERS, ids)
    document = encode_document(data)
    if vector is not None:
        document["embedding"] = [float(x) for x in vector]
    return document


def fact_from_document(document: Document, ids: IdCodec) -> Fact:
    data = decode_document(document)
    data.pop("embedding", None)
    data.pop(WRITTEN_AT, None)
    data["id"] = data.pop("_id")
    _read_owners(data, _FACT_OWNERS, ids)
    return Fact.model_validate(data)


def reflection_document(reflection: Reflection, ids: IdCodec) -> Document:
    data = reflection.model_dump()
    data["_id"] = ids.record(data.pop("id"), "reflection id")
    _owners(data, _REFLECTION_OWNERS, ids)
    return encode_document(data)


def reflection_from_document(document: Document, ids: IdCodec) -> Reflection:
    data = decode_document(document)
    data["id"] = data.pop("_id")
    _read_owners(data, _REFLECTION_OWNERS, ids)
    return Reflection.model_validate(data)


def key_id(key: ScopeKey, ids: IdCodec) -> str:
    """The ``_id`` of a scope key's blob and revision counter, readable in a shell."""
    owner = key.user_id or key.session_id
    parts = [key.scope.value, ids.text(key.agent_id, "agent_id")]
    if owner is not None:
        parts.append(ids.text(owner, "user_id" if key.user_id else "session_id"))
    return "|".join(parts)


def key_filter(key: ScopeKey, ids: IdCodec, with_session: bool = True) -> Document:
    """Equality on every field of a scope key (facts have no ``session_id``)."""
    found: Document = {
        "agent_id": ids.owner(key.agent_id, "agent_id"),
        "scope": key.scope.value,
        "user_id": ids.maybe_owner(key.user_id, "user_id"),
    }
    if with_session:
        found["session_id"] = ids.maybe_owner(key.session_id, "session_id")
    return found


def blob_document(memory: ConsolidatedMemory, ids: IdCodec) -> Document:
    data = memory.model_dump()
    _owners(data, _BLOB_OWNERS, ids)
    document = encode_document(data)
    document["_id"] = key_id(memory.key, ids)
    return document


def blob_from_document(document: Document, ids: IdCodec) -> ConsolidatedMemory:
    data = decode_document(document)
    data.pop("_id", None)
    _read_owners(data, _BLOB_OWNERS, ids)
    return ConsolidatedMemory.model_validate(data)


def session_from_document(document: Document, ids: IdCodec) -> SessionState:
    """The state of a session document, whose profile fields are kept flat beside the rest."""
    data = decode_document(document)
    profile = {k: data[k] for k in PROFILE_FIELDS if k in data}
    profile["agent_id"] = ids.read(data["agent_id"])
    profile["session_id"] = ids.read(data["session_id"])
    profile["user_ids"] = tuple(ids.read(u) for u in data.get("user_ids", ()))
    # Counters move by $inc; a crash between two writes must not make them negative.
    pending = max(0, int(data.get("pending_messages", 0)))
    tokens = max(0.0, float(data.get("pending_tokens", 0.0)))
    state = {k: data[k] for k in STATE_FIELDS if k in data}
    state |= {"pending_messages": pending, "pending_tokens": tokens if pending else 0.0}
    return SessionState.model_validate({**state, "profile": profile})
