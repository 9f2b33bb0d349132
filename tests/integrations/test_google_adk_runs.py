"""The ADK memory service through ADK's own ``Runner``: two users, a streamed run, a transfer."""

from __future__ import annotations

from google.adk.agents import LlmAgent
from google.adk.agents.run_config import (  # type: ignore[attr-defined]  # ADK's own path
    RunConfig,
    StreamingMode,
)
from google.adk.events import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.adapters.integrations.google_adk import EdenMemoryService, session_of
from tests.application.story import Story, World, make_world
from tests.integrations.adk_fake import ScriptedLlm, Step, call, echo_tool_result, say, system_of
from tests.integrations.heard import heard

FACTS = {
    "I live in Oslo.": [("Alice lives in Oslo", "user")],
    "I live in Rome.": [("Bob lives in Rome", "user")],
}
HOMES = {"alice": "Oslo", "bob": "Rome"}


class App:
    """One ADK app, "nova", for every user, its agent attached to the memory service."""

    def __init__(self, world: World, *steps: Step) -> None:
        self.service = EdenMemoryService(world.memory)
        self.model = ScriptedLlm(steps=list(steps))
        agent = LlmAgent(name="nova", model=self.model, instruction="Be brief.")
        self.sessions = InMemorySessionService()
        self.runner = Runner(
            agent=self.service.attach(agent),
            app_name="nova",
            session_service=self.sessions,
            memory_service=self.service,
        )

    async def say(
        self, user: str, session_id: str, text: str, config: RunConfig | None = None
    ) -> list[Event]:
        found = await self.sessions.get_session(
            app_name="nova", user_id=user, session_id=session_id
        )
        if found is None:
            await self.sessions.create_session(app_name="nova", user_id=user, session_id=session_id)
        message = types.Content(role="user", parts=[types.Part(text=text)])
        events = self.runner.run_async(
            user_id=user, session_id=session_id, new_message=message, run_config=config
        )
        return [event async for event in events]

    async def end(self, user: str, session_id: str) -> None:
        """The conversation is over, as a host tells ADK's memory service."""
        session = await self.sessions.get_session(
            app_name="nova", user_id=user, session_id=session_id
        )
        assert session is not None
        await self.service.add_session_to_memory(session)


def _answer(events: list[Event]) -> str:
    final = [e for e in events if e.is_final_response() and e.content and e.content.parts]
    return "".join(p.text or "" for p in final[-1].content.parts or []) if final else ""  # type: ignore[union-attr]


async def test_each_user_finds_only_their_own_memory_in_their_next_session() -> None:
    world = make_world(Story(facts=FACTS))
    searches = [call("search_facts", {"query": ["lives"]}), echo_tool_result("memory says: ")]
    app = App(world, say("Noted."), say("Noted."), *searches, *searches)
    for user, home in HOMES.items():
        await app.say(user, "monday", f"I live in {home}.")  # one session id, two users
        await app.end(user, "monday")

    answers = {user: _answer(await app.say(user, "tuesday", "Where do I live?")) for user in HOMES}

    alice, bob = app.model.requests[2:4], app.model.requests[4:6]
    assert "Alice lives in Oslo" in system_of(alice[0])  # the context, before any search
    assert "Bob lives in Rome" in system_of(bob[0])
    assert "- [user] Alice lives in Oslo" in answers["alice"]  # and what the tool found
    assert "- [user] Bob lives in Rome" in answers["bob"]
    assert "Rome" not in f"{[system_of(r) for r in alice]} {[r.contents for r in alice]}"
    assert "Oslo" not in f"{[system_of(r) for r in bob]} {[r.contents for r in bob]}"
    assert "Rome" not in answers["alice"]
    assert "Oslo" not in answers["bob"]


async def test_two_users_in_sessions_of_the_same_id_keep_their_memories_apart() -> None:
    """ADK keys a session by app, user and id: two users may both have a session "s1"."""
    world = make_world(Story(facts=FACTS))
    app = App(world, say("Noted."), say("Noted."))
    for user, home in HOMES.items():
        await app.say(user, "s1", f"I live in {home}.")
    for user in HOMES:
        await app.end(user, "s1")

    async def found(user: str) -> list[str]:
        hits = await app.service.search_memory(app_name="nova", user_id=user, query="lives")
        return [m.content.parts[0].text or "" for m in hits.memories if m.content.parts]

    assert await found("alice") == ["Alice lives in Oslo"]
    assert await found("bob") == ["Bob lives in Rome"]
    for prompt in (r.prompt for r in world.llm.calls_for("fact_extraction")):
        assert ("Oslo" in prompt) != ("Rome" in prompt)  # each formed from one user's words


IDS = st.text(alphabet="ab/:1", min_size=1, max_size=6)


@given(IDS, IDS, IDS, IDS)
def test_no_two_users_sessions_share_a_memory_session(u1: str, s1: str, u2: str, s2: str) -> None:
    assert (session_of(u1, s1) == session_of(u2, s2)) == ((u1, s1) == (u2, s2))


async def test_a_streamed_run_records_the_whole_answer_once_not_its_chunks() -> None:
    world = make_world(Story(facts=FACTS))
    app = App(world, say("Noted, you live in Oslo."))
    streaming = RunConfig(streaming_mode=StreamingMode.SSE)
    events = await app.say("alice", "monday", "I live in Oslo.", streaming)
    assert [e.partial for e in events if e.partial]  # ADK streamed chunks to the host
    transcript = await heard(world, app.service.conversation("nova", "alice", "monday"))
    assert transcript.count("I live in Oslo.") == 1
    assert transcript.count("Noted, you live in Oslo.") == 1
    assert len(transcript.strip().splitlines()) == 2  # no chunk recorded as a message
    found = await app.service.search_memory(app_name="nova", user_id="alice", query="Oslo")
    assert [m.content.parts[0].text for m in found.memories if m.content.parts] == [
        "Alice lives in Oslo"
    ]


async def test_a_transfer_between_attached_agents_shows_memory_to_both_and_records_once() -> None:
    world = make_world()
    service = EdenMemoryService(world.memory)
    oslo = types.Content(parts=[types.Part(text="Alice lives in Oslo")])
    await service.add_memory(app_name="nova", user_id="alice", memories=[MemoryEntry(content=oslo)])
    billing_model = ScriptedLlm(steps=[say("Billing here.")])
    front_model = ScriptedLlm(steps=[call("transfer_to_agent", {"agent_name": "billing"})])
    billing = service.attach(LlmAgent(name="billing", model=billing_model, description="Bills."))
    front = service.attach(LlmAgent(name="front", model=front_model, sub_agents=[billing]))
    sessions = InMemorySessionService()
    runner = Runner(agent=front, app_name="nova", session_service=sessions, memory_service=service)
    await sessions.create_session(app_name="nova", user_id="alice", session_id="s1")
    question = types.Content(role="user", parts=[types.Part(text="Send my bill.")])
    async for _ in runner.run_async(user_id="alice", session_id="s1", new_message=question):
        pass

    for model in (front_model, billing_model):
        assert "Alice lives in Oslo" in system_of(model.requests[0])
    transcript = await heard(world, service.conversation("nova", "alice", "s1"))
    assert transcript.count("Send my bill.") == 1  # both agents' recorders, each event once
    assert transcript.count("Billing here.") == 1
