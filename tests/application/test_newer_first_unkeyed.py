"""A changed fact stored without a key ranks first and marks the one it changes, whether it
came in by direct ingestion or was formed from a conversation; on every store."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from eden_memory.application.search import SearchResponse
from eden_memory.application.service import MemoryService
from eden_memory.domain.models import FactStatus, Message, Role
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import FormationSettings, MemorySettings, SearchSettings
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM
from tests.application.stores import StoreMaker
from tests.application.story import START

AGENT = AgentMemoryConfig("nova")
PORTLAND = "Alice lives in Portland, in a flat near the river."
SEATTLE = "Alice moved to Seattle and rents a townhouse in Ballard."
SISTER = "Alice's sister Beth lives in Denver."
CAT = "Alice has a cat named Tom."
BY_HAND = FormationSettings(message_interval=10**6, token_interval=1e12)


def _memory(stores: Any, llm: ScriptedLLM, **search: Any) -> MemoryService:
    settings = MemorySettings(formation=BY_HAND, search=SearchSettings(**search))
    return MemoryService(stores, KeywordEmbedder(), llm, FakeClock(START), settings)


async def _search(memory: MemoryService, query: str) -> SearchResponse:
    conversation = memory.conversation(AGENT, "ask", ["alice"])
    return await memory.search_facts(conversation, [query], thresholds=False)


def _shown(found: SearchResponse) -> dict[str, str | None]:
    """Each result's content, with the content of the newer one that outdates it."""
    by_id = {r.fact.id: r.fact.content for r in found.results}
    return {r.fact.content: r.newer and by_id[r.newer] for r in found.results}


def _order(found: SearchResponse, *contents: str) -> list[str]:
    return [r.fact.content for r in found.results if r.fact.content in contents]


async def test_by_direct_ingestion_the_move_ranks_first_and_marks_the_old_home(
    make_store: StoreMaker,
) -> None:
    memory = _memory(await make_store(), ScriptedLLM([]))
    items = [(PORTLAND, 400), (SISTER, 300), (CAT, 200), (SEATTLE, 10)]
    await memory.admin.add_facts(
        [
            {
                "content": c,
                "agent_id": "nova",
                "user_id": "alice",
                "formed_at": START - timedelta(d),
            }
            for c, d in items
        ]
    )
    found = await _search(memory, "Where does Alice live in Portland or Seattle now?")
    assert _order(found, PORTLAND, SEATTLE) == [SEATTLE, PORTLAND]
    assert _shown(found)[PORTLAND] == SEATTLE
    assert _shown(found)[SISTER] is None  # another subject: her sister's home is not Alice's
    assert _shown(found)[CAT] is None


async def _portland_then_seattle(memory: MemoryService) -> None:
    await memory.admin.add_facts(
        [
            {
                "content": c,
                "agent_id": "nova",
                "user_id": "alice",
                "formed_at": START - timedelta(d),
            }
            for c, d in ((PORTLAND, 400), (SEATTLE, 10))
        ]
    )


async def test_a_question_about_the_past_or_the_rule_off_marks_nothing(
    make_store: StoreMaker,
) -> None:
    now = "Where does Alice live in Portland or Seattle now?"
    for on, query in ((True, "Where did Alice live: Portland or Seattle?"), (False, now)):
        memory = _memory(await make_store(), ScriptedLLM([]), same_attribute=on)
        await _portland_then_seattle(memory)
        found = await _search(memory, query)
        assert _shown(found) == {PORTLAND: None, SEATTLE: None}


def _formed(*contents: str) -> ScriptedLLM:
    """A model that forms ``contents`` one per formation, and whose dedup decides nothing
    (so every fact is added: the model did not see that one changes another)."""
    answers = iter(contents)
    return ScriptedLLM(
        by_purpose={
            "fact_extraction": lambda request, schema: {
                "facts": [{"content": next(answers), "scope": "user", "source_messages": []}]
            },
            "reflection_extraction": lambda request, schema: {
                "agent": [],
                "user": [],
                "session": [],
            },
            "dedup": lambda request, schema: {"decisions": []},
            "consolidation": lambda request, schema: {"content": "Alice moved."},
        }
    )


async def _talk(memory: MemoryService, session: str, text: str, days: int) -> None:
    conversation = memory.conversation(AGENT, session, ["alice"])
    sent = START + timedelta(days=days)
    message = Message(
        id=f"{session}-m0", role=Role.USER, text=text, sent_at=sent, author_id="alice"
    )
    await memory.record_messages(conversation, [message])
    assert await memory.end_session(conversation) is not None


async def test_formed_in_two_sessions_the_move_ranks_first_and_marks_the_old_home(
    make_store: StoreMaker,
) -> None:
    memory = _memory(await make_store(), _formed(PORTLAND, SEATTLE))
    await _talk(memory, "s1", "I live in Portland, near the river.", 0)
    await _talk(memory, "s2", "We moved to Seattle, a townhouse in Ballard!", 200)
    listed = await memory.admin.list_facts("nova", status=None)
    assert {f.content: f.status for f in listed} == {
        PORTLAND: FactStatus.ACTIVE,
        SEATTLE: FactStatus.ACTIVE,
    }
    found = await _search(memory, "Where does Alice live in Portland or Seattle now?")
    assert _order(found, PORTLAND, SEATTLE) == [SEATTLE, PORTLAND]
    assert _shown(found)[PORTLAND] == SEATTLE
