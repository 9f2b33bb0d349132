"""The ADK memory service and agent tool in a real ADK Runner, with a scripted model, offline."""

from __future__ import annotations

import copy
import importlib
import sys
from typing import Any

import pytest
from google.adk.agents import LlmAgent
from google.adk.events import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService, Session
from google.adk.tools.preload_memory_tool import PreloadMemoryTool
from google.genai import types

from eden_memory import InvalidInputError, NotFoundError
from eden_memory.adapters.integrations.google_adk import EdenMemoryService, turn_of
from eden_memory.domain.errors import MissingExtraError
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, World, make_world
from tests.integrations.adk_fake import (
    ScriptedLlm,
    Step,
    call,
    echo_tool_result,
    say,
    system_of,
    tools_of,
)

FACTS = {"I live in Oslo.": [("Alice lives in Oslo", "user")]}


class Host:
    """An ADK app "nova" with the memory attached, as a host wires it."""

    def __init__(self, world: World, *steps: Step, agent: LlmAgent | None = None) -> None:
        self.service = EdenMemoryService(world.memory)
        self.model = ScriptedLlm(steps=list(steps))
        own = agent or LlmAgent(name="nova", model=self.model, instruction="Be brief.")
        self.agent = self.service.attach(own)
        self.sessions = InMemorySessionService()
        self.runner = Runner(
            agent=self.agent,
            app_name="nova",
            session_service=self.sessions,
            memory_service=self.service,
        )

    async def say(self, session_id: str, text: str) -> list[Event]:
        if not await self.sessions.get_session(
            app_name="nova", user_id="alice", session_id=session_id
        ):
            await self.sessions.create_session(
                app_name="nova", user_id="alice", session_id=session_id
            )
        message = types.Content(role="user", parts=[types.Part(text=text)])
        return [
            event
            async for event in self.runner.run_async(
                user_id="alice", session_id=session_id, new_message=message
            )
        ]

    async def session(self, session_id: str) -> Session:
        found = await self.sessions.get_session(
            app_name="nova", user_id="alice", session_id=session_id
        )
        assert found is not None
        return found


async def _pending(world: World, session_id: str) -> int:
    chat = world.memory.conversation("nova", session_id, ["alice"])
    state = (await world.memory.record_messages(chat, [])).state
    return state.pending_messages if state else 0


async def test_turns_are_recorded_formed_at_the_end_then_seen_and_searched() -> None:
    world = make_world(Story(facts=FACTS))
    host = Host(
        world,
        say("Noted."),
        call("search_facts", {"query": ["Alice lives"]}),
        echo_tool_result("memory says: "),
    )
    await host.say("monday", "I live in Oslo.")
    assert await _pending(world, "monday") == 2  # recorded after the turn, not yet formed
    await host.service.add_session_to_memory(await host.session("monday"))
    assert await _pending(world, "monday") == 0  # the session ended: formed

    events = await host.say("tuesday", "Where do I live?")

    first = host.model.requests[1]
    assert system_of(first).startswith("Be brief.")
    assert "<MemoryContext>" in system_of(first)
    assert "Alice lives in Oslo" in system_of(first)
    assert tools_of(first) == ["search_facts"]
    answer = events[-1].content
    assert answer is not None
    assert answer.parts
    assert "- [user] Alice lives in Oslo" in str(answer.parts[0].text)
    assert await _pending(world, "tuesday") == 2  # the question, the answer; not memory's tool


async def test_a_session_added_then_continued_is_recorded_and_formed_again_once() -> None:
    world = make_world(Story(facts=FACTS))
    host = Host(world, say("Noted."), say("You're welcome."))
    await host.say("monday", "I live in Oslo.")
    await host.service.add_session_to_memory(await host.session("monday"))
    await host.say("monday", "Thanks.")
    assert await _pending(world, "monday") == 2  # only the new turn
    await host.service.add_session_to_memory(await host.session("monday"))
    assert await _pending(world, "monday") == 0
    found = await host.service.search_memory(app_name="nova", user_id="alice", query="Oslo")
    assert [m.content.parts[0].text for m in found.memories if m.content.parts] == [
        "Alice lives in Oslo"
    ]


async def test_search_memory_gives_facts_to_adks_own_memory_tools() -> None:
    world = make_world(Story(facts=FACTS))
    host = Host(world, say("Noted."))
    await host.say("monday", "I live in Oslo.")
    await host.service.add_session_to_memory(await host.session("monday"))

    found = await host.service.search_memory(
        app_name="nova", user_id="alice", query="Where does Alice live? " * 100
    )  # a whole message, longer than a query may be: cut
    [entry] = found.memories
    assert entry.content.parts
    assert entry.content.parts[0].text == "Alice lives in Oslo"
    assert entry.author is None
    assert entry.custom_metadata["scope"] == "user"
    assert entry.timestamp

    model = ScriptedLlm(steps=[say("Oslo.")])
    preload = LlmAgent(name="nova", model=model, tools=[PreloadMemoryTool()])
    reader = Host(world, agent=preload)
    await reader.say("tuesday", "Where do I live?")
    shown = str(model.requests[0].contents)
    assert "<PAST_CONVERSATIONS>" in shown
    assert "Alice lives in Oslo" in shown


async def test_an_agent_without_searchable_memory_gets_no_tool_and_finds_nothing() -> None:
    world = make_world(Story(facts=FACTS))
    off = AgentMemoryConfig("nova", user_memory_enabled=False, agent_memory_enabled=False)
    host = Host(world, say("Hello."))
    host.service = EdenMemoryService(world.memory, agents=[off])
    host.agent = host.service.attach(LlmAgent(name="nova", model=host.model))
    host.runner = Runner(agent=host.agent, app_name="nova", session_service=host.sessions)
    await host.say("s1", "hello")
    assert tools_of(host.model.requests[0]) == []
    empty = await host.service.search_memory(app_name="nova", user_id="alice", query="Oslo")
    assert empty.memories == []


async def test_the_tool_schema_is_the_libraries_and_bad_arguments_reach_the_model() -> None:
    world = make_world()
    host = Host(world, call("search_facts", {"query": ["x"], "top_k": 500}), say("Sorry."))
    events = await host.say("s1", "hello")
    [declaration] = [
        d
        for tool in host.model.requests[0].config.tools or []
        if isinstance(tool, types.Tool)
        for d in tool.function_declarations or []
    ]
    schema: Any = declaration.parameters_json_schema
    assert schema["properties"]["top_k"]["maximum"] == 50
    parts = [p for e in events if e.content for p in e.content.parts or []]
    [response] = [p.function_response for p in parts if p.function_response]
    assert "top_k" in str((response.response or {}).get("error"))


async def test_attach_keeps_the_agents_tools_and_callbacks_and_copies_it() -> None:
    calls: list[str] = []

    async def own_callback(callback_context: Any) -> None:
        calls.append("own")

    def lookup(city: str) -> str:
        """Weather in a city."""
        return "sunny"

    world = make_world()
    model = ScriptedLlm(steps=[say("Hi.")])
    agent = LlmAgent(name="nova", model=model, tools=[lookup], after_agent_callback=own_callback)
    host = Host(world, agent=agent)
    await host.say("s1", "hello")
    assert calls == ["own"]
    assert tools_of(model.requests[0]) == ["lookup", "search_facts"]
    assert agent.tools == [lookup]  # the host's agent is unchanged
    assert await _pending(world, "s1") == 2


def test_copies_of_the_tool_and_the_recorder_share_the_memory_service() -> None:
    # ADK and hosts deep-copy requests holding the tool; the service holds a metering
    # context variable and store connections, which cannot be copied and must not be.
    from eden_memory.adapters.integrations.google_adk_agent import MemoryTool, TurnRecorder

    service = EdenMemoryService(make_world().memory)
    tool, recorder = MemoryTool(service), TurnRecorder(service)
    copied_tool, copied_recorder = copy.deepcopy(tool), copy.deepcopy(recorder)

    assert copied_tool is not tool
    assert copied_tool.service is service
    assert copied_recorder is not recorder
    assert copied_recorder.service is service
    assert copied_tool.name == tool.name == "search_facts"


def test_events_become_messages_with_their_ids_times_and_authors() -> None:
    user = Event(
        id="e1",
        author="user",
        timestamp=1_767_225_600.0,
        content=types.Content(role="user", parts=[types.Part(text="Hi.")]),
    )
    result = types.FunctionResponse(name="lookup", response={"ok": 1})
    tool = Event(
        id="e2",
        author="nova",
        content=types.Content(role="user", parts=[types.Part(function_response=result)]),
    )
    partial = Event(id="e3", author="nova", partial=True, content=types.Content(parts=[]))
    empty = Event(id="e4", author="nova")
    turn = turn_of([user, tool, partial, empty], "alice")
    assert [(m["id"], m["role"], m["author_id"]) for m in turn] == [
        ("e1", "user", "alice"),
        ("e2", "model", None),
    ]
    assert turn[0]["sent_at"].isoformat() == "2026-01-01T00:00:00+00:00"


async def test_function_responses_are_tool_messages_and_events_without_a_session_share_one() -> (
    None
):
    world = make_world()
    service = EdenMemoryService(world.memory)
    result = types.FunctionResponse(name="lookup", response={"ok": 1})
    tool = Event(
        id="e2",
        author="nova",
        content=types.Content(role="user", parts=[types.Part(function_response=result)]),
    )
    await service.add_events_to_memory(app_name="nova", user_id="alice", events=[tool])
    chat = service.conversation("nova", "alice", "adk-no-session")
    await world.memory.end_session(chat)
    prompts = [r.prompt for r in world.llm.calls_for("fact_extraction")]
    assert len(prompts) == 1
    assert 'tool: [result of lookup {"ok": 1}]' in prompts[0]


async def test_add_memory_stores_the_users_facts_and_names_a_bad_one() -> None:
    world = make_world()
    service = EdenMemoryService(world.memory)
    good = MemoryEntry(
        id="m1",
        content=types.Content(parts=[types.Part(text="Alice is vegetarian")]),
        timestamp="2026-01-01T10:00:00+00:00",
    )
    bad = MemoryEntry(content=types.Content(parts=[types.Part(text="")]))
    with pytest.raises(InvalidInputError, match=r"memories\[1\]"):
        await service.add_memory(app_name="nova", user_id="alice", memories=[good, bad])
    found = await service.search_memory(app_name="nova", user_id="alice", query="vegetarian")
    [entry] = found.memories
    assert (entry.id, entry.timestamp) == ("m1", "2026-01-01T10:00:00+00:00")
    other = await service.search_memory(app_name="nova", user_id="bob", query="vegetarian")
    assert other.memories == []  # a user's facts are that user's


async def test_add_memory_takes_what_a_memory_supersedes_from_its_metadata() -> None:
    world = make_world()
    service = EdenMemoryService(world.memory)

    def diet(memory_id: str, text: str, day: int, **told: str) -> MemoryEntry:
        content = types.Content(parts=[types.Part(text=text)])
        said = f"2026-01-{day:02d}T10:00:00+00:00"
        return MemoryEntry(id=memory_id, content=content, timestamp=said, custom_metadata=told)

    await service.add_memory(
        app_name="nova",
        user_id="alice",
        memories=[
            diet("d1", "Alice eats meat", 1, key="user.diet"),
            diet("d2", "Alice is vegetarian now", 2, key="user.diet"),
            diet("t1", "Alice is in Rome", 2, valid_until="2026-01-03T10:00:00+00:00"),
        ],
    )
    found = await service.search_memory(app_name="nova", user_id="alice", query="Alice eats")
    assert "d1" not in {m.id for m in found.memories}
    meat, rome = [await world.memory.admin.get_fact("nova", i) for i in ("d1", "t1")]
    assert (meat.status.value, meat.superseded_by) == ("retired", "d2")
    assert rome.status_label(world.clock.now()) == "expired"
    with pytest.raises(InvalidInputError, match="fact gone to supersede is not stored"):
        await service.add_memory(
            app_name="nova",
            user_id="alice",
            memories=[diet("x", "Alice eats fish", 3, supersedes="gone")],
        )


async def test_delete_memory_deletes_only_the_users_own_fact() -> None:
    world = make_world()
    service = EdenMemoryService(world.memory)

    def entry(memory_id: str, text: str) -> MemoryEntry:
        return MemoryEntry(id=memory_id, content=types.Content(parts=[types.Part(text=text)]))

    await service.add_memory(
        app_name="nova", user_id="alice", memories=[entry("a1", "Alice likes tea")]
    )
    await service.add_memory(
        app_name="nova", user_id="bob", memories=[entry("b1", "Bob likes tea")]
    )
    shared = {"id": "g1", "content": "Nova serves tea", "scope": "agent", "agent_id": "nova"}
    added = await world.memory.admin.add_facts([shared | {"formed_at": world.clock.now()}])
    assert not added.rejected

    async def found(user: str) -> set[str]:
        hits = await service.search_memory(app_name="nova", user_id=user, query="tea")
        return {m.id or "" for m in hits.memories}

    assert await found("alice") == {"a1", "g1"}
    for other, error in (("b1", NotFoundError), ("nope", NotFoundError), ("g1", InvalidInputError)):
        with pytest.raises(error, match=repr(other)):
            await service.delete_memory(app_name="nova", user_id="alice", memory_id=other)
    with pytest.raises(NotFoundError):  # another agent's app sees none of nova's facts
        await service.delete_memory(app_name="orbit", user_id="alice", memory_id="a1")
    with pytest.raises(InvalidInputError, match="erase_user"):
        await service.delete_memory(app_name="nova", user_id="alice")
    assert await found("alice") == {"a1", "g1"}  # nothing deleted by the refusals
    await service.delete_memory(app_name="nova", user_id="alice", memory_id="a1")
    assert await found("alice") == {"g1"}
    assert await found("bob") == {"b1", "g1"}
    with pytest.raises(NotFoundError):  # deleted for good
        await world.memory.admin.get_fact("nova", "a1")


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("google.adk", "google.adk.agents", "google.adk.memory"):
        monkeypatch.setitem(sys.modules, name, None)
    for module in ("google_adk", "google_adk_agent"):
        monkeypatch.delitem(sys.modules, f"eden_memory.adapters.integrations.{module}")
    with pytest.raises(MissingExtraError, match=r'pip install -e "\.\[adk\]"'):
        importlib.import_module("eden_memory.adapters.integrations.google_adk")
