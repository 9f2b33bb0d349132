"""A Google ADK agent with eden-memory as its memory service: attach, run, end the session.

    pip install -e ".[embedded,adk]"
    python examples/google_adk_agent.py             # offline: a scripted BaseLlm (below)
    python examples/google_adk_agent.py --real      # gemini-3-flash-preview; needs
                                                    # GOOGLE_API_KEY (or GEMINI_API_KEY)

ADK ships no offline model, so ``OfflineLlm`` stands in: it calls ``search_facts`` once and
answers with what it found.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncGenerator

from eden_memory import MissingExtraError

try:
    from eden_memory.adapters.integrations.google_adk import EdenMemoryService
except MissingExtraError as missing:  # without the extra: one line saying which
    sys.exit(f"error: {missing}")

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from eden_memory.demo.alice import AGENT, remembering_memory, run_example


class OfflineLlm(BaseLlm):
    """Searches memory for the email, then answers with the tool's output."""

    model: str = "offline"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1].parts or []
        found = [p.function_response.response or {} for p in last if p.function_response]
        if found:
            part = types.Part(text=f"From memory: {found[0].get('output')}")
        else:
            call = types.FunctionCall(name="search_facts", args={"query": ["email"]})
            part = types.Part(function_call=call)
        usage = types.GenerateContentResponseUsageMetadata(
            prompt_token_count=0, candidates_token_count=0
        )
        yield LlmResponse(content=types.Content(role="model", parts=[part]), usage_metadata=usage)


async def main(real: bool = False) -> str:
    model: BaseLlm | str = "gemini-3-flash-preview" if real else OfflineLlm()
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
    run_example(main, keys=["GOOGLE_API_KEY", "GEMINI_API_KEY"])
