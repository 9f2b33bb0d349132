"""A session id reused for another user, as each integration's docs wire one conversation per
request (issue 40, item 1): Bob's model never receives Alice's session memory.

Before, the context went into Bob's instructions and only the recording after the run was
refused. Each framework is driven through its own runner with its own test model.
"""

from __future__ import annotations

from typing import Any

import pytest
from agents import Agent as AgentsAgent
from agents import Runner
from agents.testing import ScriptedModel, assistant_message
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from eden_memory.adapters.integrations.langchain_agent import MemoryMiddleware
from eden_memory.adapters.integrations.openai_agents import AgentsMemory
from eden_memory.adapters.integrations.pydantic_ai import EdenMemory
from eden_memory.domain.errors import SessionUsersError
from eden_memory.domain.scopes import ScopeKey
from tests.application.story import World, make_world
from tests.integrations.langchain_fake import ToolTakingFakeModel

SECRET = "Alice is planning a surprise for her sister"


async def _alices_session() -> World:
    """Alice's session "s1": a turn recorded and a session blob."""
    world = make_world()
    alice = world.memory.conversation("nova", "s1", ["alice"])
    await world.memory.record_messages(alice, world.messages("it is a secret"))
    key = ScopeKey.session("nova", "s1")
    await world.memory.admin.replace_consolidated(key, SECRET, expected_version=0)
    return world


async def test_pydantic_ai_refuses_bobs_run_before_his_model_sees_alices_session() -> None:
    world = await _alices_session()
    seen: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(str(messages))
        return ModelResponse(parts=[TextPart("Noted.")])

    bob = world.memory.conversation("nova", "s1", ["bob"])
    agent = Agent(FunctionModel(model), capabilities=[EdenMemory(world.memory, bob)])
    with pytest.raises(SessionUsersError, match="own session id"):
        await agent.run("What is Alice planning?")
    assert seen == []


async def test_langgraph_middleware_refuses_a_thread_id_reused_for_another_user() -> None:
    world = await _alices_session()
    model = ToolTakingFakeModel(messages=iter([AIMessage("Noted.")]))
    agent: Any = create_agent(model, middleware=[MemoryMiddleware(world.memory, agent="nova")])
    config = {"configurable": {"thread_id": "s1", "user_id": "bob"}}
    with pytest.raises(SessionUsersError, match="own session id"):
        await agent.ainvoke({"messages": [HumanMessage("What is Alice planning?")]}, config)
    assert SECRET not in str(model.prompts)


async def test_openai_agents_attach_refuses_bobs_run_before_his_model_sees_alices_session() -> None:
    world = await _alices_session()
    bob = world.memory.conversation("nova", "s1", ["bob"])
    memory_for = AgentsMemory(world.memory, bob)
    model = ScriptedModel([[assistant_message("Noted.")]])
    agent = memory_for.attach(AgentsAgent(name="nova", model=model))

    async def run_and_record() -> None:  # the package's documented way: run, then record
        await memory_for.record(await Runner.run(agent, "What is Alice planning?"))

    with pytest.raises(SessionUsersError, match="own session id"):
        await run_and_record()
    assert SECRET not in str([call.system_instructions for call in model.calls])
    assert list(model.calls) == []
