"""``EdenSession`` through the SDK's own Runner, with a scripted model, offline."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from agents import Agent, Runner, RunResult, SQLiteSession
from agents.memory import Session, SessionSettings

from eden_memory.adapters.integrations.openai_agents import AgentsMemory, EdenSession
from eden_memory.adapters.integrations.openai_agents.runs import RecordedRuns
from eden_memory.application.conversation import Conversation
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import FormationSettings, MemorySettings
from tests.application.story import Story, World, make_world
from tests.integrations.agents_fake import AnsweringModel

AGENT = AgentMemoryConfig("nova")
FACTS = {
    "I live in Oslo.": [("Alice lives in Oslo", "user")],
    "I live in Rome.": [("Bob lives in Rome", "user")],
}
# Formation is due after 4 messages (two runs), so it starts from add_items, as it would
# after record_messages.
DUE_AFTER_TWO_RUNS = MemorySettings(formation=FormationSettings(message_interval=4))


class Host:
    """One agent for every user; per request, memory attached and a session, as a host
    serving many users wires them (the history in a file, as a server keeps it)."""

    def __init__(self, world: World, history: Path) -> None:
        self.world = world
        self.history = history
        self.model = AnsweringModel()
        self.agent = Agent(name="nova", instructions="Be brief.", model=self.model)

    def chat(self, user: str, session_id: str) -> Conversation:
        return self.world.memory.conversation(AGENT, session_id, [user])

    def session(self, chat: Conversation) -> EdenSession:
        history = SQLiteSession(chat.session_id, self.history)
        return EdenSession(self.world.memory, chat, history)

    async def say(self, user: str, session_id: str, text: str) -> RunResult:
        chat = self.chat(user, session_id)
        agent = AgentsMemory(self.world.memory, chat).attach(self.agent)
        return await Runner.run(agent, text, session=self.session(chat))

    async def pending(self, user: str, session_id: str) -> int:
        state = (await self.world.memory.record_messages(self.chat(user, session_id), [])).state
        assert state is not None
        return state.pending_messages


async def test_memory_formed_in_one_session_is_found_in_the_next_by_its_user_only(
    tmp_path: Path,
) -> None:
    world = make_world(Story(facts=FACTS), settings=DUE_AFTER_TWO_RUNS)
    host = Host(world, tmp_path / "history.db")
    for user, home in (("alice", "Oslo"), ("bob", "Rome")):
        await host.say(user, f"{user}-monday", f"I live in {home}.")
        await host.say(user, f"{user}-monday", "Thanks.")
    await world.memory.wait_for_background()
    assert [(r.session_id, r.trigger) for r in world.memory.reports] == [
        ("alice-monday", "due"),
        ("bob-monday", "due"),
    ]  # formed from the session's items, with no call from the host

    alice = await host.say("alice", "alice-tuesday", "Where do I live?")
    shown = host.model.instructions[-2]
    bob = await host.say("bob", "bob-tuesday", "Where do I live?")

    assert shown is not None
    assert "Alice lives in Oslo" in shown
    assert "Rome" not in shown
    assert "- [user] Alice lives in Oslo" in alice.final_output
    assert "Rome" not in alice.final_output
    assert "- [user] Bob lives in Rome" in bob.final_output
    assert "Oslo" not in bob.final_output
    assert await host.pending("alice", "alice-tuesday") == 2  # not memory's own tool traffic


async def test_the_next_run_continues_from_the_items_tool_calls_included(tmp_path: Path) -> None:
    world = make_world(Story(facts=FACTS))
    host = Host(world, tmp_path / "history.db")
    await host.say("alice", "s1", "Where do I live?")  # a search_facts call and its output
    await host.say("alice", "s1", "Thanks.")

    kinds = [item.get("type", item.get("role")) for item in host.model.inputs[-1]]
    assert kinds == ["user", "function_call", "function_call_output", "message", "user"]
    session = host.session(host.chat("alice", "s1"))
    assert len(await session.get_items()) == 6
    assert await host.pending("alice", "s1") == 4  # two questions, two answers


async def test_record_beside_the_sdks_own_session_records_each_message_once() -> None:
    """The issue's count: two runs with ``session=SQLiteSession`` and ``record`` were 6."""
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    memory_for = AgentsMemory(world.memory, chat)
    agent = memory_for.attach(Agent(name="nova", model=AnsweringModel()))
    sdk_session = SQLiteSession("s1")
    for text in ("I live in Oslo.", "Thanks."):
        recorded = await memory_for.record(await Runner.run(agent, text, session=sdk_session))
    assert recorded.state is not None
    assert recorded.state.pending_messages == 4


async def test_record_after_a_run_its_eden_session_recorded_adds_nothing() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    memory_for = AgentsMemory(world.memory, chat)
    agent = memory_for.attach(Agent(name="nova", model=AnsweringModel()))
    session = EdenSession(world.memory, chat)
    for text in ("I live in Oslo.", "Thanks."):
        recorded = await memory_for.record(await Runner.run(agent, text, session=session))
    assert recorded.state is not None
    assert recorded.state.pending_messages == 4
    assert recorded.messages == 0


async def test_the_same_items_added_twice_are_kept_and_recorded_once() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    session = EdenSession(world.memory, chat)
    turn: list[Any] = [
        {"role": "user", "content": "I live in Oslo."},
        {"role": "assistant", "content": "Noted."},
    ]
    await session.add_items(turn)
    await session.add_items(turn)  # a retry
    assert await session.get_items() == turn
    state = (await world.memory.record_messages(chat, [])).state
    assert state is not None
    assert state.pending_messages == 2


async def test_get_pop_and_clear_change_the_history_not_what_memory_heard() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    session = EdenSession(world.memory, chat)
    assert isinstance(session, Session)
    said: list[Any] = [{"role": "user", "content": f"message {i}"} for i in range(4)]
    await session.add_items(said[:3])
    await session.add_items(said[3:])

    assert await session.get_items(2) == said[2:]
    assert await session.pop_item() == said[3]
    assert await session.get_items() == said[:3]
    await session.clear_session()
    assert await session.get_items() == []
    assert await session.pop_item() is None
    state = (await world.memory.record_messages(chat, [])).state
    assert state is not None
    assert state.pending_messages == 4


async def test_the_underlying_sessions_settings_limit_what_a_run_reads() -> None:
    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    history = SQLiteSession("s1", session_settings=SessionSettings(limit=2))
    session = EdenSession(world.memory, chat, history)
    model = AnsweringModel()
    agent = AgentsMemory(world.memory, chat).attach(Agent(name="nova", model=model))
    for text in ("One.", "Two.", "Three."):
        await Runner.run(agent, text, session=session)
    assert session.session_settings == SessionSettings(limit=2)
    assert [i.get("content") for i in model.inputs[-1]][-1] == "Three."
    assert len(model.inputs[-1]) == 3  # two items of history, then the new input


def test_a_recorded_run_is_forgotten_with_its_context() -> None:
    class Run:
        pass

    world = make_world()
    chat = world.memory.conversation(AGENT, "s1", ["alice"])
    other = world.memory.conversation(AGENT, "s2", ["alice"])
    runs, run = RecordedRuns(), Run()
    runs.add(run, chat)
    assert runs.holds(run, chat)
    assert not runs.holds(run, other)
    assert not runs.holds(Run(), chat)
    del run
    gc.collect()
    assert len(runs) == 0
