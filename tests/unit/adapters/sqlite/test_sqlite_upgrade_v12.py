"""Schema version 13 keeps who was present with each message; a version-12 file opens and
forms its pending messages as its release did (the session's users at formation)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.schema import SCHEMA_VERSION
from eden_memory.domain.models import Message, Role
from tests.application.story import Story, World, make_world

ALICE_SAYS = "I water the plants on Mondays"
STORY = Story(facts={ALICE_SAYS: [("plants need water", "agent")]})


def _said(world: World, text: str, author: str | None, n: int) -> Message:
    now = world.clock.now() + timedelta(seconds=n)
    return Message(id=f"m{n}", role=Role.USER, text=text, sent_at=now, author_id=author)


def _as_version_12(path: Path) -> None:
    """The messages as the previous release wrote them: no ``present`` in the document, the
    author column the host's author."""
    with sqlite3.connect(path, isolation_level=None) as raw:
        raw.execute("BEGIN IMMEDIATE")
        raw.execute(
            "UPDATE messages SET doc = json_remove(doc, '$.present'), "
            "author_id = json_extract(doc, '$.author_id')"
        )
        raw.execute("PRAGMA user_version = 12")
        raw.execute("COMMIT")
    raw.close()


async def test_a_version_12_store_opens_and_forms_its_pending_words_as_before(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    stores = await open_sqlite(path)
    world = make_world(STORY, stores=stores)
    alice = world.memory.conversation("nova", "s1", ["alice"])
    await world.memory.record_messages(alice, [_said(world, ALICE_SAYS, None, 1)])
    await stores.close()
    _as_version_12(path)

    stores = await open_sqlite(path)
    try:
        world = make_world(STORY, stores=stores)
        group = world.memory.conversation("nova", "s1", ["alice", "bob"])
        await world.memory.record_messages(group, [_said(world, "hello", "bob", 2)])
        await world.memory.end_session(group)
        [fact] = await world.memory.admin.list_facts("nova", limit=10)
    finally:
        await stores.close()
    # Recorded before the store kept who was present: credited to the users at formation.
    assert (fact.content, fact.source_user_ids) == ("plants need water", ("alice", "bob"))
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert SCHEMA_VERSION == 13
    raw.close()
