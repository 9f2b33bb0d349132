"""Scope isolation end to end, in generated worlds of agents, users and group sessions."""

from __future__ import annotations

import asyncio
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from eden_memory.domain.errors import SessionUsersError
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, make_world

AGENTS = ["ava", "ben"]
USERS = ["u1", "u2", "u3"]

sessions = st.lists(
    st.tuples(
        st.sampled_from(AGENTS),
        st.lists(st.sampled_from(USERS), min_size=1, max_size=3, unique=True),
    ),
    min_size=1,
    max_size=5,
)


def _owner_marker(agent: str, users: list[str], index: int) -> str:
    return f"secret {agent} {'-'.join(users)} s{index}"


def _story(plan: list[tuple[str, list[str]]]) -> Story:
    story = Story()
    for index, (agent, users) in enumerate(plan):
        text = _owner_marker(agent, users, index)
        story.facts[text] = [(f"userfact {text}", "user"), (f"agentfact {text}", "agent")]
        story.notes[text] = [
            ("user", f"usernote {text}"),
            ("agent", f"agentnote {text}"),
            ("session", f"sessionnote {text}"),
        ]
    return story


_MEMORY = re.compile(
    r"(userfact|agentfact|usernote|agentnote|sessionnote) secret (\S+) (\S+) (s\d+)"
)


def _allowed(line: str, agent: str, users: list[str], session: int) -> bool:
    """May a memory line (a fact or a note) appear to this conversation?"""
    found = _MEMORY.search(line)
    assert found is not None, line
    kind, owner_agent, owner_users, owner_session = found.groups()
    if owner_agent != agent:
        return False
    if kind.startswith("agent"):
        return True
    if kind.startswith("session"):
        return owner_session == f"s{session}"
    # user memory: only a sole user's, only their own
    return len(users) == 1 and owner_users == users[0]


@settings(max_examples=30, deadline=None)
@given(sessions, st.booleans(), st.booleans())
@example([("ava", ["u1"])] * 4, True, True)  # eight facts tie on the broad query
def test_no_context_or_search_shows_another_agents_or_users_memory(
    plan: list[tuple[str, list[str]]], user_on: bool, agent_on: bool
) -> None:
    asyncio.run(_check_world(plan, user_on, agent_on))


async def _check_world(plan: list[tuple[str, list[str]]], user_on: bool, agent_on: bool) -> None:
    world = make_world(_story(plan))
    memory = world.memory
    for index, (agent, users) in enumerate(plan):
        config = AgentMemoryConfig(
            agent, user_memory_enabled=user_on, agent_memory_enabled=agent_on
        )
        conv = memory.conversation(config, f"s{index}", users)
        text = _owner_marker(agent, users, index)
        await memory.record_messages(conv, world.messages(text, "a", "b", "c", author=users[0]))
        await memory.end_session(conv)
    for index, (agent, users) in enumerate(plan):
        config = AgentMemoryConfig(
            agent, user_memory_enabled=user_on, agent_memory_enabled=agent_on
        )
        conv = memory.conversation(config, f"s{index}", users)
        xml = (await memory.get_context(conv)).xml
        for line in xml.splitlines():
            if _MEMORY.search(line):
                assert _allowed(line, agent, users, index), (line, agent, users)
        if memory.search_offered(conv):
            found = await memory.search_facts(conv, ["secret userfact agentfact"], top_k=50)
            for result in found.results:
                assert _allowed(result.fact.content, agent, users, index)
            own = f"userfact {_owner_marker(agent, users, index)}"
            if user_on and len(users) == 1:  # the isolation is not bought by showing nothing
                # Asked by its own words: the broad query above ties every fact of the user
                # on keywords, and the RRF floor keeps only the first six of a tie.
                mine = await memory.search_facts(conv, [own], top_k=50)
                assert own in {r.fact.content for r in mine.results}
                assert all(_allowed(r.fact.content, agent, users, index) for r in mine.results)
        if len(users) > 1 or not user_on:
            assert "<UserMemory>" not in xml


def test_a_session_id_reused_for_another_user_neither_relabels_nor_shows_memory() -> None:
    asyncio.run(_reused_session_id())


async def _reused_session_id() -> None:
    """A host that names every user's session "s1": before, Bob's turn relabelled Alice's
    pending words, and her facts were formed as his."""
    story = Story()
    story.facts["alice lives in Oslo"] = [("userfact alice lives in Oslo", "user")]
    world = make_world(story)
    memory = world.memory
    alice = memory.conversation("nova", "s1", ["alice"])
    await memory.record_messages(alice, world.messages("alice lives in Oslo", "a", "b", "c"))
    bob = memory.conversation("nova", "s1", ["bob"])
    with pytest.raises(SessionUsersError, match="own session id"):
        await memory.record_messages(bob, world.messages("bob lives in Rome", "d", "e", "f"))
    await memory.end_session(alice)
    bobs = await memory.search_facts(memory.conversation("nova", "s2", ["bob"]), ["Oslo"])
    assert bobs.results == []
    alices = await memory.search_facts(memory.conversation("nova", "s3", ["alice"]), ["Oslo"])
    assert [r.fact.content for r in alices.results] == ["userfact alice lives in Oslo"]
