"""Messages as hosts have them: OpenAI, Anthropic, Gemini and plain shapes, all or none."""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionMessage

from eden_memory import Conversation, InvalidInputError, Message, Role
from eden_memory.domain.ids import AgentId, SessionId
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import Story, World, make_world

AGENT = AgentMemoryConfig("nova")


async def _pending(world: World, session: str = "s1") -> int:
    state = (await world.memory.record_messages(_chat(world, session), [])).state
    assert state is not None
    return state.pending_messages


def _chat(world: World, session: str = "s1") -> Conversation:
    return world.memory.conversation(AGENT, session, ["alice"])


def test_hosts_role_names_are_the_agent_tool_and_other_roles() -> None:
    assert Role("assistant") is Role.AGENT
    assert Role("model") is Role.AGENT
    assert Role("function") is Role.TOOL
    assert Role("system") is Role.OTHER
    with pytest.raises(ValueError, match="'bot' is not a valid Role"):
        Role("bot")


async def test_openai_chat_messages_with_parts_and_tool_calls_are_recorded() -> None:
    world = make_world()
    turn: list[Any] = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "name": "Alice", "content": [{"type": "text", "text": "My cat is Tom."}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "find_pet", "arguments": '{"query": ["cat"]}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "No facts found."},
        ChatCompletionMessage(role="assistant", content="Nice to meet Tom!"),
    ]
    await world.memory.record_messages(_chat(world), turn)
    messages = await _formed_messages(world)
    assert [m.role for m in messages] == [Role.USER, Role.AGENT, Role.TOOL, Role.AGENT]
    assert messages[0].author_name == "Alice"
    assert messages[1].text == '[called find_pet {"query": ["cat"]}]'
    assert messages[3].text == "Nice to meet Tom!"


async def test_anthropic_blocks_with_tool_use_and_tool_result_are_recorded() -> None:
    world = make_world()
    turn: list[Any] = [
        {"role": "user", "content": "Where do I live?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "look it up", "signature": "x"},
                {"type": "text", "text": "Let me check."},
                {
                    "type": "tool_use",
                    "id": "t1",
                    "name": "find_home",
                    "input": {"query": ["home"]},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "Alice lives in Oslo"}
            ],
        },
    ]
    await world.memory.record_messages(_chat(world), turn)
    messages = await _formed_messages(world)
    assert [m.role for m in messages] == [Role.USER, Role.AGENT, Role.TOOL]
    assert messages[1].text == 'Let me check.\n[called find_home {"query": ["home"]}]'
    assert messages[2].text == "Alice lives in Oslo"


async def test_gemini_contents_sdk_objects_and_dicts_are_recorded() -> None:
    world = make_world()
    turn: list[Any] = [
        types.Content(role="user", parts=[types.Part(text="I moved to Oslo.")]),
        {
            "role": "model",
            "parts": [{"text": "Noted."}, {"functionCall": {"name": "f", "args": {}}}],
        },
        {"role": "user", "parts": [{"function_response": {"name": "f", "response": {"ok": 1}}}]},
    ]
    await world.memory.record_messages(_chat(world), turn)
    messages = await _formed_messages(world)
    assert [m.role for m in messages] == [Role.USER, Role.AGENT, Role.TOOL]
    assert messages[0].text == "I moved to Oslo."
    assert messages[1].text == "Noted.\n[called f {}]"
    assert messages[2].text == '[result of f {"ok": 1}]'


async def test_a_gemini_content_may_carry_the_plain_keys_of_its_turn() -> None:
    world = make_world()
    sent = "2026-03-01T09:30:00+00:00"
    turn: list[Any] = [
        {
            "id": "e1",
            "role": "user",
            "parts": [{"text": "Hi."}],
            "author_id": "alice",
            "author_name": "Alice",
            "sent_at": sent,
        },
    ]
    await world.memory.record_messages(_chat(world), turn)
    [message] = await _formed_messages(world)
    assert (message.id, message.author_id, message.author_name) == ("e1", "alice", "Alice")
    assert message.sent_at.isoformat() == sent


async def test_the_authors_display_name_reaches_the_extraction_prompt() -> None:
    world = make_world(Story())
    turn: list[Any] = [
        {"role": "user", "text": "I like tea.", "author_id": "alice", "author_name": "Alice Smith"}
    ]
    await world.memory.record_messages(_chat(world), turn)
    await world.memory.end_session(_chat(world))
    prompts = [r.prompt for r in world.llm.calls_for("fact_extraction")]
    assert prompts
    assert "user (Alice Smith): I like tea." in prompts[0]  # the name, not the id beside it


async def test_a_bad_batch_names_every_bad_field_and_records_nothing() -> None:
    world = make_world()
    turn: list[Any] = [
        {"role": "assistant", "content": "fine"},
        {"role": "bot", "content": "who?"},
        {"role": "user", "content": [{"type": "hologram"}]},
        {"role": "user"},
        {"role": "user", "content": "x" * 200_001},
        42,
    ]
    with pytest.raises(InvalidInputError) as caught:
        await world.memory.record_messages(_chat(world), turn)
    text = str(caught.value)
    for field in (
        "messages[1].role: unknown role 'bot'",
        "messages[2].content[0].type: unknown content block type 'hologram'",
        "messages[3].content: missing",
        "messages[4].text:",
        "messages[5]: must be a message object, got int",
    ):
        assert field in text
    assert "messages[0]" not in text
    assert await _pending(world) == 0


@given(
    good=st.lists(st.sampled_from(["user", "assistant", "model", "tool"]), max_size=5),
    at=st.integers(min_value=0, max_value=5),
    bad=st.sampled_from([{"role": "user", "content": 3}, {"role": None, "text": "x"}, "hi", None]),
)
async def test_one_bad_item_anywhere_keeps_the_whole_batch_out(
    good: list[str], at: int, bad: object
) -> None:
    world = make_world()
    batch: list[object] = [{"role": r, "text": f"said {i}"} for i, r in enumerate(good)]
    batch.insert(min(at, len(batch)), bad)
    with pytest.raises(InvalidInputError, match=r"messages\[\d\]"):
        await world.memory.record_messages(_chat(world), batch)  # type: ignore[arg-type]
    assert await _pending(world) == 0


async def _formed_messages(world: World) -> list[Message]:
    """The session's pending messages, in order, as formation would read them."""
    claim = await world.stores.sessions.claim_messages(
        AgentId("nova"), SessionId("s1"), "test", world.clock.now(), 60, 1, 100
    )
    assert claim is not None
    return list(claim.messages)


async def test_openai_responses_items_are_recorded_without_their_item_ids() -> None:
    world = make_world()
    turn: list[Any] = [
        {"role": "user", "content": "Book a table."},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {
            "type": "function_call",
            "id": "__fake_id__",
            "call_id": "c1",
            "name": "book",
            "arguments": "{}",
        },
        {"type": "function_call_output", "call_id": "c1", "output": "booked for 8"},
        {
            "type": "message",
            "id": "__fake_id__",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Done, 8 pm.", "annotations": []}],
        },
    ]
    await world.memory.record_messages(_chat(world), turn)
    messages = await _formed_messages(world)
    assert [(m.role, m.text) for m in messages] == [
        (Role.USER, "Book a table."),
        (Role.AGENT, "[called book {}]"),
        (Role.TOOL, "booked for 8"),
        (Role.AGENT, "Done, 8 pm."),
    ]


async def test_two_messages_of_a_batch_with_one_id_are_refused() -> None:
    world = make_world()
    turn: list[Any] = [
        {"role": "user", "text": "a", "id": "m1"},
        {"role": "user", "text": "b", "id": "m1"},
    ]
    with pytest.raises(InvalidInputError, match=r"messages\[1\]\.id: 'm1' is also messages\[0\]'s"):
        await world.memory.record_messages(_chat(world), turn)
    assert await _pending(world) == 0


async def test_the_memorys_own_search_is_not_recorded_in_any_shape() -> None:
    world = make_world()
    search = {"name": "search_facts", "arguments": '{"query": ["home"]}'}
    turn: list[Any] = [
        {"role": "user", "content": "Where do I live?"},
        {"role": "assistant", "tool_calls": [{"id": "o1", "type": "function", "function": search}]},
        {"role": "tool", "tool_call_id": "o1", "content": "- [user] Alice lives in Oslo"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "a1", "name": "search_facts", "input": {}}],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "a1", "content": "- [user] x"}],
        },
        {"role": "model", "parts": [{"function_call": {"name": "search_facts", "args": {}}}]},
        {
            "role": "user",
            "parts": [{"function_response": {"name": "search_facts", "response": {}}}],
        },
        {"type": "function_call", "name": "search_facts", "call_id": "r1", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "r1", "output": "- [user] y"},
        {"role": "assistant", "content": "You live in Oslo."},
    ]
    await world.memory.record_messages(_chat(world), turn)
    messages = await _formed_messages(world)
    assert [m.text for m in messages] == ["Where do I live?", "You live in Oslo."]
