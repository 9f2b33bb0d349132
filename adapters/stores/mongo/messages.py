"""Session and message documents: ids, fields, and the session's profile update.

A session's ``_id`` is ``agent|session`` and a message's ``agent|session|message`` (``|``
cannot occur in an id), so recording a retried turn finds the same documents again. A
message carries its place in the session (``seq``), its weight for the token trigger,
whether it was formed, and the claim that holds it while a worker forms it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.mongo.codec import (
    IdCodec,
    decode_document,
    encode_document,
    time_update,
)
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.domain.models import Message, Role
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage

MESSAGE_FIELDS = ("role", "text", "sent_at", "author_id", "author_name", "present")


def session_key(ids: IdCodec, agent_id: object, session: object) -> str:
    return f"{ids.text(agent_id, 'agent_id')}|{ids.text(session, 'session_id')}"


def owner_filter(ids: IdCodec, agent_id: object, session: object) -> Document:
    """The session's fields as stored: what every query on its messages starts with."""
    return {
        "agent_id": ids.owner(agent_id, "agent_id"),
        "session_id": ids.owner(session, "session_id"),
    }


def session_filter(ids: IdCodec, agent_id: object, session: object) -> Document:
    """The session document by ``_id`` and by its shard key fields (a targeted query)."""
    return {"_id": session_key(ids, agent_id, session), **owner_filter(ids, agent_id, session)}


def profile_update(ids: IdCodec, profile: SessionProfile, now: datetime) -> Document:
    """Refresh the profile snapshot and the activity time; create the session if new."""
    update = time_update("last_activity_at", now)
    update["$set"].update(
        user_ids=[ids.owner(u, "user_id") for u in dict.fromkeys(profile.user_ids)],
        user_memory_enabled=profile.user_memory_enabled,
        agent_memory_enabled=profile.agent_memory_enabled,
        memory_instructions=profile.memory_instructions,
        premium=profile.premium,
    )
    # The agent's own settings, only the fields it sets; none, no field (as before they were).
    if profile.settings.changes:
        update["$set"]["settings"] = profile.settings.changes
    else:
        update["$unset"] = {"settings": ""}
    # agent_id and session_id come from the filter's equality (``session_filter``).
    update["$setOnInsert"] = {
        "claim_id": None,
        "claim_expires_at": None,
        "last_formed_at": None,
        "ended_at": None,
    }
    return update


def message_document(
    ids: IdCodec, profile: SessionProfile, pending: PendingMessage, seq: int
) -> Document:
    message = pending.message
    record_id = ids.record(message.id, "message id")
    document = encode_document(message.model_dump(include=set(MESSAGE_FIELDS)))
    document.update(owner_filter(ids, profile.agent_id, profile.session_id))
    document.update(
        _id=f"{session_key(ids, profile.agent_id, profile.session_id)}|{record_id}",
        message_id=record_id,
        seq=seq,
        weighted_tokens=float(pending.weighted_tokens),
        formed=False,
        claim_id=None,
    )
    return document


def message_from_document(document: Document) -> Message:
    data: dict[str, Any] = decode_document(document)
    fields = {name: data.get(name) for name in MESSAGE_FIELDS}
    return Message.model_validate({"id": data["message_id"], **fields})


def said_alone_by(user: str) -> Document:
    """A user's words with no author, said with no other user present: filed under that user
    (``filed_author``), though the document keeps the author the host gave (none)."""
    return {"author_id": None, "role": Role.USER.value, "present": [user]}
