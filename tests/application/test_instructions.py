"""Memory instructions shape the agent's consolidated memory too (seed 004)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.domain.scopes import AgentMemoryConfig, ScopeKey
from eden_memory.ports.llm import LLMRequest
from tests.application.story import make_world
from tests.application.test_story import STORY

INSTRUCTIONS = "Track the festival.\nDeadlines and milestone dates\nBudget allocations"
AGENT = AgentMemoryConfig("nova", memory_instructions=INSTRUCTIONS)


def consolidate(request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
    """Agent blobs organised under the owner's headings; any other blob plain. Each says only
    what its notes said: a consolidation that adds a specific is refused (issue 40)."""
    if "the agent's own memory" in request.system:
        return {"content": "Deadlines and milestone dates\n- Planning the Mars festival is ongoing"}
    return {"content": "- Alice plans the festival budget"}


async def test_the_agents_consolidation_follows_the_instructions_and_may_use_their_words() -> None:
    llm = ScriptedLLM(STORY, by_purpose={"consolidation": consolidate})
    world = make_world(STORY, llm=llm)
    conv = world.memory.conversation(AGENT, "s1", ["alice"])
    await world.memory.record_messages(
        conv, world.messages("the Mars festival budget is 50000 dollars", "a", "b", "c")
    )
    report = await world.memory.end_session(conv)
    assert report is not None
    statuses = {c.scope_key: c.status for c in report.consolidations}
    # A heading taken from the instructions is the owner's word, not an echo of the prompt.
    assert statuses == {"agent:nova:": "consolidated", "session:nova:s1": "consolidated"}
    asked = {
        "agent" if "the agent's own memory" in r.system else "other": r.prompt
        for r in llm.calls_for("consolidation")
    }
    assert "Deadlines and milestone dates\nBudget allocations" in asked["agent"]
    assert "Deadlines" not in asked["other"]
    blobs = await world.stores.buffers.get_consolidated([ScopeKey.agent("nova")])
    assert blobs[ScopeKey.agent("nova")].content.startswith("Deadlines and milestone dates\n")
