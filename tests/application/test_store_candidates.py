"""The store narrows by index; the domain's rules decide. A store that returns more than the
rule allows (a boundary it reads differently, an index that lags) changes nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import cast

from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import Fact, SessionState
from eden_memory.domain.scopes import AgentMemoryConfig, FactVisibility
from eden_memory.ports.stores import FactQuery, SessionStore
from eden_memory.testing import memory_stores
from tests.application.faults import facts_replaced
from tests.application.story import make_world
from tests.application.test_story import STORY
from tests.contract.store.world import WholeFacts, whole_facts

AGENT = AgentMemoryConfig("nova")


class GenerousFacts:
    """A fact store whose FIFO query also returns every other fact it holds."""

    def __init__(self, inner: WholeFacts) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    async def recent_facts(
        self, visibility: FactVisibility, since: datetime, limit: int
    ) -> list[Fact]:
        return await self._inner.list_facts(FactQuery(visibility.agent_id, status=None))


class GenerousSessions:
    """A session store whose cold-session query returns every session it knows."""

    def __init__(self, inner: SessionStore, known: list[tuple[str, str]]) -> None:
        self._inner = inner
        self._known = known

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    async def cold_sessions(
        self, idle_before: datetime, min_messages: int, limit: int
    ) -> list[SessionState]:
        found = [await self._inner.get_session(AgentId(a), SessionId(s)) for a, s in self._known]
        return [state for state in found if state is not None]


async def test_the_fifo_shows_only_what_its_rule_admits_whatever_the_store_returns() -> None:
    stores = memory_stores()
    world = make_world(STORY, stores=facts_replaced(stores, GenerousFacts(whole_facts(stores))))
    fresh = {"id": "fresh", "content": "Alice moved to Porto", "scope": "user"}
    old = {"id": "old", "content": "Alice lived in Lisbon", "scope": "user"}
    bobs = {"id": "bobs", "content": "Bob drinks green tea", "scope": "user", "user_id": "bob"}
    now = world.clock.now()
    added = await world.memory.admin.add_facts(
        [
            fresh | {"agent_id": "nova", "user_id": "alice", "formed_at": now},
            old | {"agent_id": "nova", "user_id": "alice", "formed_at": now - timedelta(days=90)},
            bobs | {"agent_id": "nova", "formed_at": now},
        ]
    )
    assert not added.rejected
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    context = await world.memory.get_context(chat, refresh=True)
    assert "Alice moved to Porto" in context.xml
    assert "Alice lived in Lisbon" not in context.xml  # past the FIFO's age
    assert "Bob drinks green tea" not in context.xml  # another user's
    assert context.facts == 1


async def test_only_sessions_cold_by_the_rule_are_formed_whatever_the_store_returns() -> None:
    stores = memory_stores()
    known = [("nova", "quiet"), ("nova", "busy")]
    world = make_world(
        STORY,
        stores=replace(
            stores, sessions=cast(SessionStore, GenerousSessions(stores.sessions, known))
        ),
    )
    for session in ("quiet", "busy"):
        chat = world.memory.conversation(AGENT, session, ["alice"])
        await world.memory.record_messages(
            chat, world.messages("I work at Acme Corp", "a", "b", "c", author="alice")
        )
        if session == "quiet":
            world.clock.advance(minutes=30)
    reports = await world.memory.process_cold_sessions()
    assert [r.session_id for r in reports] == ["quiet"]
    busy = await stores.sessions.get_session(AgentId("nova"), SessionId("busy"))
    assert busy is not None
    assert busy.pending_messages == 4
    assert UserId("alice") in busy.profile.user_ids
