"""Reading v1 values defensively: ids in either ObjectId or string form, times, text.

v1 documents were written by several versions of the first system (and sometimes by hand
through its UI), so every field is read as "maybe missing, maybe the wrong type". These
functions never raise: they return None and let the caller report the document.
The domain may not import ``bson``, so ObjectIds are recognised by shape. (The v1 source
adapter and the migration use case both read ids this way.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import check_id


def source_id(value: object) -> str | None:
    """The canonical string of a v1 id: an ObjectId's hex, a string as is, Extended JSON too.

    ``ObjectId("65a…")`` and ``"65a…"`` give the same string, so references written in
    either form find the same document.
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, Mapping):
        return source_id(value.get("$oid"))
    if isinstance(value, str):
        text = value.strip()
        return text or None
    if isinstance(value, int):
        return str(value)
    if hasattr(value, "binary") and hasattr(value, "generation_time"):  # bson.ObjectId
        return str(value)
    return None


def valid_id(value: object) -> str | None:
    """A v1 id usable as an eden-memory id (agent, user, session), or None."""
    text = source_id(value)
    if text is None:
        return None
    try:
        return check_id(text)
    except InvalidInputError:
        return None


def id_list(value: object) -> list[str]:
    """A list of v1 references, each normalised; unusable entries are left out."""
    if not isinstance(value, list | tuple):
        return []
    return [s for s in (source_id(v) for v in value) if s is not None]


def utc_time(value: object) -> datetime | None:
    """A v1 time as an aware UTC datetime; pymongo returns naive UTC datetimes by default."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    if isinstance(value, Mapping):
        return utc_time(value.get("$date"))
    if isinstance(value, str):
        try:
            return utc_time(datetime.fromisoformat(value.replace("Z", "+00:00")))
        except ValueError:
            return None
    return None


def created_time(doc: Mapping[str, Any]) -> datetime | None:
    """When a v1 record was made: ``createdAt`` (the v1 Document base), ``created_at``, or the
    time inside its ObjectId."""
    for name in ("createdAt", "created_at"):
        found = utc_time(doc.get(name))
        if found is not None:
            return found
    stamp = getattr(doc.get("_id"), "generation_time", None)
    return utc_time(stamp)


def updated_time(doc: Mapping[str, Any]) -> datetime | None:
    for name in ("last_updated_at", "updatedAt", "updated_at"):
        found = utc_time(doc.get(name))
        if found is not None:
            return found
    return created_time(doc)


def text(value: object) -> str | None:
    """A v1 text field, or None when it is missing or not a string."""
    return value if isinstance(value, str) else None


def target_id(kind: str, agent_id: str, v1_id: str) -> str:
    """The eden-memory id of a migrated record: the same v1 record always gets the same id.

    Deterministic ids make the migration idempotent and resumable: a re-run recognises what
    an earlier (or crashed) run wrote by id alone.
    """
    digest = hashlib.sha256(f"{kind}\x1f{agent_id}\x1f{v1_id}".encode()).hexdigest()
    return f"v1-{kind}-{digest[:32]}"
