"""A small, fixed memory to look at in the console: its tests and screenshots use it.

Agent ``nova`` with users ``alice`` and ``bob``: facts of both scopes (one retired and
superseded, one holding markup that must show as text), blobs of each scope, buffered
reflections, and a session of alice's. Agent ``orion`` holds a fact of its own, to show that a
console opened on ``nova`` alone never reaches it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from eden_memory.application.service import MemoryService
from eden_memory.domain.ids import FactId, ReflectionId, SessionId
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey

AGENT, OTHER_AGENT = "nova", "orion"
ALICE, BOB, SESSION = "alice", "bob", "s-alice-1"
MARKUP = "<script>alert('pwned')</script> <b>bold</b> & co"


def _facts(service: MemoryService) -> list[dict[str, object]]:
    now = service.clock.now()
    rows: list[tuple[str, str, str | None, int]] = [
        ("f-email", "Alice's email is alice@example.com", ALICE, 3),
        ("f-city", "Alice lives in Lisbon", ALICE, 50),
        ("f-city-new", "Alice moved to Porto in May", ALICE, 5),
        ("f-markup", f"Alice wrote {MARKUP}", ALICE, 8),
        ("f-bob-tea", "Bob drinks green tea, never coffee", BOB, 20),
        ("f-deploy", f"Deploys to production happen on Tuesdays, not {MARKUP}", None, 30),
        ("f-oncall", "The on-call rota changes every Monday at 9:00", None, 90),
    ]
    return [
        {
            "id": fact_id,
            "content": content,
            "scope": "user" if user else "agent",
            "agent_id": AGENT,
            "user_id": user,
            "formed_at": now - timedelta(hours=hours),
            "source_session_id": SESSION if user == ALICE else None,
            "source_message_ids": ("m-1", "m-2") if user == ALICE else (),
        }
        for fact_id, content, user, hours in rows
    ]


def _reflection(key: ScopeKey, rid: str, content: str, hours_ago: int, now: datetime) -> Reflection:
    at = now - timedelta(hours=hours_ago)
    return Reflection.in_scope(
        key,
        id=ReflectionId(rid),
        content=content,
        formed_at=at,
        created_at=at,
        source_session_id=SessionId(SESSION),
    )


async def seed_sample(service: MemoryService) -> None:
    """Write the sample memory through the service (facts are embedded like any others)."""
    await service.admin.add_facts(_facts(service))
    other = {"content": "Orion's secret launch code is 0000", "scope": "agent"}
    await service.admin.add_facts(
        [{**other, "agent_id": OTHER_AGENT, "formed_at": service.clock.now(), "id": "f-orion"}]
    )
    stores, now = service.admin.stores, service.clock.now()
    [old] = await stores.facts.get_facts([FactId("f-city")])
    moved = old.retired(now - timedelta(hours=5), "contradicted", FactId("f-city-new"))
    await stores.facts.update_fact(moved, None, old.version)
    agent, user, session = (
        ScopeKey.agent(AGENT),
        ScopeKey.user(AGENT, ALICE),
        ScopeKey.session(AGENT, SESSION),
    )
    await stores.buffers.add_reflections(
        [
            _reflection(agent, "r-agent-1", "Users like short answers with one example", 6, now),
            _reflection(user, "r-alice-1", "Alice prefers replies in Portuguese", 4, now),
            _reflection(user, "r-alice-2", f"Alice pasted {MARKUP}", 2, now),
            _reflection(session, "r-session-1", "This session plans a trip to Porto", 1, now),
        ]
    )
    blobs = {
        agent: "Nova is an operations assistant. It answers briefly and links the runbook.",
        user: f"Alice is an engineer in Porto. She prefers Portuguese. She once sent {MARKUP}.",
        session: f"Planning a weekend trip; budget around 300 euros; the form said {MARKUP}.",
    }
    for key, content in blobs.items():
        seen = await service.admin.get_consolidated(key)
        await service.admin.replace_consolidated(key, content, expected_version=seen.version)
    conversation = service.conversation(AGENT, SESSION, [ALICE])
    turn = [{"role": "user", "content": "Book me a train to Porto"}]
    await service.record_messages(conversation, turn, background=False)
