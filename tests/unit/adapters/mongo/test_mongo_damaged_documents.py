"""A stored document that does not decode is a ``StoreCorruptedError`` naming its collection.

MongoDB has no file to name: the error names the collection and the document's ``_id``, and
why it failed, never quoting the stored text. Each test damages documents behind the store's
back (as a hand edit, another tool or a bad restore would) and reads them through the ports.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from mongomock_motor import AsyncMongoMockClient

from eden_memory.adapters.stores.mongo import mongo_stores
from eden_memory.domain.errors import EdenMemoryError, StoreCorruptedError
from eden_memory.domain.ids import FactId
from eden_memory.ports.stores import FactQuery, Stores
from tests.unit.adapters.damaged_stores import KEYS, SPACE, T0, VIEWER, A, S, fill, outcomes

Read = Callable[[Stores], Awaitable[object]]
COLLECTIONS = ("facts", "reflections", "consolidated", "sessions", "messages", "meta", "revisions")

CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], Read, str]] = [
    (
        "a fact field of the wrong type",
        "facts",
        {"_id": "fact-3"},
        {"$set": {"version": "two"}},
        lambda s: s.facts.get_facts([FactId("fact-3")]),
        "the document 'fact-3' does not decode: Fact version:",
    ),
    (
        "a reflection without its time",
        "reflections",
        {"_id": "r0-2"},
        {"$unset": {"formed_at": ""}},
        lambda s: s.buffers.unabsorbed(list(KEYS)),
        "the document 'r0-2' does not decode: Reflection formed_at: Field required",
    ),
    (
        "a blob whose content is a number",
        "consolidated",
        {"scope": "agent"},
        {"$set": {"content": 42}},
        lambda s: s.note_records.list_consolidated(A),
        "does not decode: ConsolidatedMemory content:",
    ),
    (
        "a session toggle that is no boolean",
        "sessions",
        {},
        {"$set": {"premium": "maybe"}},
        lambda s: s.sessions.get_session(A, S),
        "the document 'agent|session' does not decode: SessionState profile.premium:",
    ),
    (
        "a message of an unknown role",
        "messages",
        {"message_id": "m1"},
        {"$set": {"role": "wizard"}},
        lambda s: s.sessions.claim_messages(A, S, "claim", T0, 60, 1, 100),
        "does not decode: Message role:",
    ),
    (
        "an embedding that is text",
        "facts",
        {"_id": "fact-5"},
        {"$set": {"embedding": "0.1, 0.2"}},
        lambda s: s.facts.get_vectors([FactId("fact-5")]),
        "the document 'fact-5' does not decode: TypeError: its embedding is not a list",
    ),
    (
        "an embedding that is text, searched",
        "facts",
        {"_id": "fact-5"},
        {"$set": {"embedding": "0.1, 0.2"}},
        lambda s: s.ranking.semantic_ranking([1.0] * 8, VIEWER, 5, space=SPACE),
        "the document 'fact-5' does not decode: TypeError: its embedding is not a list",
    ),
    (
        "a space whose dimension is text",
        "meta",
        {},
        {"$set": {"dimension": "eight"}},
        lambda s: s.facts.embedding_space(),
        "does not decode: TypeError: a counter holds str",
    ),
    (
        "a fact of an unknown scope",
        "facts",
        {"_id": "fact-7"},
        {"$set": {"scope": "galaxy"}},
        lambda s: s.fact_records.list_facts(FactQuery(A, status=None)),
        "the document 'fact-7' does not decode: Fact scope:",
    ),
    (
        "a revision counter that is text",
        "revisions",
        {},
        {"$set": {"revision": "many"}},
        lambda s: s.revisions.revisions(list(KEYS)),
        "does not decode: TypeError: a counter holds str",
    ),
]


async def _filled() -> tuple[Stores, Any]:
    database: Any = AsyncMongoMockClient()[f"eden_{uuid.uuid4().hex}"]
    stores = mongo_stores(database)
    await fill(stores)
    return stores, database


@pytest.mark.parametrize(
    ("collection", "which", "damage", "read", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
async def test_a_damaged_document_names_its_collection_and_id(
    collection: str, which: dict[str, Any], damage: dict[str, Any], read: Read, expected: str
) -> None:
    stores, database = await _filled()
    changed = await database[f"memory2_{collection}"].update_many(which, damage)
    assert changed.modified_count >= 1
    async with stores:
        with pytest.raises(StoreCorruptedError) as raised:
            await read(stores)
    message = str(raised.value)
    assert message.startswith(f"the MongoDB collection memory2_{collection} is damaged: ")
    assert expected in message
    assert "green tea" not in message
    assert "likes tea" not in message


WRONG: list[object] = [None, "garbage", -7, 3.5, True, [], ["x", 1], {"nested": "doc"}]


@pytest.mark.parametrize("seed", range(12))
async def test_any_damaged_field_answers_or_raises_our_errors(seed: int) -> None:
    """A field of any document set to a value of another kind, or removed: each read
    answers, or raises an ``EdenMemoryError``; never pydantic's or Python's own."""
    chance = random.Random(seed)
    stores, database = await _filled()
    for _ in range(3):
        collection = database[f"memory2_{chance.choice(COLLECTIONS)}"]
        documents = await collection.find({}).to_list(None)
        if not documents:
            continue
        document = chance.choice(documents)
        field = chance.choice(sorted(k for k in document if k != "_id"))
        value = chance.choice([*WRONG, "unset"])
        change = {"$unset": {field: ""}} if value == "unset" else {"$set": {field: value}}
        await collection.update_one({"_id": document["_id"]}, change)
    async with stores:
        found = await outcomes(stores)
        found.append(await _claimed_later(stores))
    for outcome in found:
        if outcome is not None:
            assert isinstance(outcome, EdenMemoryError), repr(outcome)


async def _claimed_later(stores: Stores) -> BaseException | None:
    try:
        await stores.sessions.claim_messages(A, S, "late", T0 + timedelta(hours=1), 60, 1, 5)
        await stores.fact_records.list_facts(FactQuery(A, status=None))
    except Exception as exc:
        return exc
    return None
