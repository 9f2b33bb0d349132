"""Values on their way to BSON and back: ids checked, times kept exact, enums as strings.

Ids are checked *before* anything is sent, so an operator document such as
``{"$ne": ""}`` passed where an id belongs can never widen a query. BSON dates hold
milliseconds; the microseconds below them are kept in a small ``_us`` map beside the
field, so every record reads back exactly as it was written while dates stay real dates
for queries, sorting and a person browsing the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any

from bson import ObjectId

from eden_memory.adapters.stores.mongo.options import IdMode
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import check_id

StoredId = str | ObjectId
MICROS = "_us"


class IdCodec:
    """Host ids (agent, user, session) as stored, under the configured id mode."""

    def __init__(self, mode: IdMode) -> None:
        self.mode = mode

    def owner(self, value: object, what: str) -> StoredId:
        if self.mode is IdMode.OBJECT_ID:
            if isinstance(value, ObjectId):
                return value
            if isinstance(value, str) and ObjectId.is_valid(value):
                return ObjectId(value)
            shown = repr(value) if isinstance(value, str) else type(value).__name__
            raise InvalidInputError(
                f"{what} must be a 24-hex ObjectId in ObjectId mode, got {shown}"
            )
        return check_id(value, what)

    def maybe_owner(self, value: object, what: str) -> StoredId | None:
        return None if value is None else self.owner(value, what)

    @staticmethod
    def record(value: object, what: str) -> str:
        """A record id (fact, reflection, message): always a checked string."""
        return check_id(value, what)

    @staticmethod
    def read(value: object) -> str | None:
        return None if value is None else str(value)

    def text(self, value: object, what: str) -> str:
        """The checked id in its string form, for composite keys."""
        return str(self.owner(value, what))


def bson_time(value: datetime) -> datetime:
    """A time as BSON stores it: UTC, cut to the millisecond."""
    utc = value.astimezone(UTC)
    return utc.replace(microsecond=utc.microsecond // 1000 * 1000)


def time_update(field: str, value: datetime | None) -> dict[str, dict[str, Any]]:
    """``$set``/``$unset`` parts that write one top-level time exactly (see ``MICROS``)."""
    if value is None:
        return {"$set": {field: None}, "$unset": {f"{MICROS}.{field}": ""}}
    below = value.astimezone(UTC).microsecond % 1000
    update: dict[str, dict[str, Any]] = {"$set": {field: bson_time(value)}}
    if below:
        update["$set"][f"{MICROS}.{field}"] = below
    else:
        update["$unset"] = {f"{MICROS}.{field}": ""}
    return update


def encode(value: Any) -> Any:
    """A Python value as the store writes it (see ``encode_document`` for times)."""
    if isinstance(value, Mapping):
        return encode_document(value)
    if isinstance(value, list | tuple):
        return [encode(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return bson_time(value)
    return value


def encode_document(document: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    micros: dict[str, int] = {}
    for key, value in document.items():
        if isinstance(value, datetime):
            out[key] = bson_time(value)
            below = value.astimezone(UTC).microsecond % 1000
            if below:
                micros[key] = below
        else:
            out[key] = encode(value)
    if micros:
        out[MICROS] = micros
    return out


def decode(value: Any) -> Any:
    if isinstance(value, Mapping):
        return decode_document(value)
    if isinstance(value, list):
        return [decode(item) for item in value]
    if isinstance(value, datetime):
        return _aware(value)
    return value


def decode_document(document: Mapping[str, Any]) -> dict[str, Any]:
    micros = document.get(MICROS) or {}
    out: dict[str, Any] = {}
    for key, value in document.items():
        if key == MICROS:
            continue
        if isinstance(value, datetime):
            out[key] = _aware(value) + timedelta(microseconds=int(micros.get(key, 0)))
        else:
            out[key] = decode(value)
    return out


def _aware(value: datetime) -> datetime:
    """pymongo returns naive UTC unless the client is tz_aware; accept both."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
