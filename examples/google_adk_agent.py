"""A Google ADK agent with eden-memory as its memory service: attach, run, end the session.

Run it with ``GOOGLE_API_KEY`` (or ``GEMINI_API_KEY``) set, for ADK's Gemini model; the test
suite passes a scripted ``BaseLlm`` instead, offline::

    python -m examples.google_adk_agent
"""

from __future__ import annotations

import asyncio

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from eden_memory.adapters.integrations.google_adk import EdenMemoryService
from examples.common import AGENT, remembering_memory


async def main(model: BaseLlm | str = "gemini-3-flash-preview") -> str:
    async with remembering_memory() as memory:
        helper = LlmAgent(name="helper", model=model, instruction="You are a helpful assistant.")
        sessions = InMemorySessionService()
        # The lines a host adds: the memory service, attached to the agent and the runner.
        memory_service = EdenMemoryService(memory)
        runner = Runner(
            agent=memory_service.attach(helper),
            app_name=AGENT.agent_id,
            session_service=sessions,
            memory_service=memory_service,
        )
        session = await sessions.create_session(app_name=AGENT.agent_id, user_id="alice")
        question = types.Content(role="user", parts=[types.Part(text="What is my email?")])
        answer = ""
        async for event in runner.run_async(
            user_id="alice", session_id=session.id, new_message=question
        ):
            if event.is_final_response() and event.content and event.content.parts:
                answer = "".join(part.text or "" for part in event.content.parts)
        # And when the conversation is over, its memories form.
        ended = await sessions.get_session(
            app_name=AGENT.agent_id, user_id="alice", session_id=session.id
        )
        if ended is not None:
            await memory_service.add_session_to_memory(ended)
        print(answer)
        return answer


if __name__ == "__main__":
    asyncio.run(main())
