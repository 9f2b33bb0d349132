"""An empty search_facts answer says why, in words a model can use: "nothing stored about
this" when there were facts to search, "no facts visible" when there were none; the same in
every provider's reply format."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from eden_memory.adapters.tools.search_facts import SearchFactsHandler, ToolReply
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import make_world
from tests.application.test_search import _world

QUESTION = ["Which dentist does Carla see?"]
UNSTORED: dict[str, Any] = {"name": "search_facts", "arguments": {"query": QUESTION}}
HELD_BACK = re.compile(
    r'^No facts found for "Which dentist does Carla see\?": nothing stored about this '
    r"\(best relevance 0\.\d{4} under the line 0\.5\)\.$"
)


async def test_an_abstaining_search_tells_the_model_nothing_is_stored_about_it() -> None:
    world, conv = await _world()
    text = await SearchFactsHandler(world.memory, conv)(UNSTORED)
    assert HELD_BACK.match(text), text


async def test_an_empty_store_tells_the_model_no_facts_are_visible() -> None:
    world = make_world()
    conv = world.memory.conversation(AgentMemoryConfig("nova"), "s1", ["alice"])
    text = await SearchFactsHandler(world.memory, conv)(UNSTORED)
    assert text == (
        'No facts found for "Which dentist does Carla see?": no facts visible '
        "(no fact visible to this user and agent)."
    )


async def test_a_search_with_results_reads_as_before() -> None:
    world, conv = await _world()
    call = {"name": "search_facts", "arguments": {"query": ["Mars festival budget"]}}
    text = await SearchFactsHandler(world.memory, conv)(call)
    assert text.startswith('Facts found for "Mars festival budget", best first:\n- [agent] ')
    assert "nothing stored" not in text


async def test_a_debug_answer_lists_the_hits_held_back_with_their_relevance() -> None:
    world, conv = await _world()
    call = {"name": "search_facts", "arguments": {"query": QUESTION, "debug": True}}
    text = await SearchFactsHandler(world.memory, conv)(call)
    first, rest = text.split("\n", 1)
    assert HELD_BACK.match(first), first
    assert "  held back under the line 0.5:" in rest
    held = re.findall(r"^  \S+: relevance (0\.\d{4}) score ", rest, re.M)
    assert held
    assert all(float(r) < 0.5 for r in held)


@pytest.mark.parametrize(
    ("shape", "read"),
    [
        (ToolReply.openai_chat_message, lambda m: m["content"]),
        (ToolReply.openai_responses_item, lambda m: m["output"]),
        (ToolReply.anthropic_block, lambda m: m["content"]),
        (ToolReply.gemini_response, lambda m: m["response"]["output"]),
    ],
)
async def test_every_reply_format_carries_the_reason_as_an_answer_not_an_error(
    shape: Callable[[ToolReply], dict[str, Any]], read: Callable[[dict[str, Any]], str]
) -> None:
    world, conv = await _world()
    reply = await SearchFactsHandler(world.memory, conv).handle(UNSTORED)
    assert not reply.is_error
    message = shape(reply)
    assert HELD_BACK.match(read(message)), message
    assert "is_error" not in message
