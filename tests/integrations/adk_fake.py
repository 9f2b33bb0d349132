"""A scripted ADK model: each call answers with the next step of the script, offline."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types
from pydantic import Field

Step = Callable[[LlmRequest], types.Part]


class ScriptedLlm(BaseLlm):
    """Answers each request with the part the next step makes of it; keeps the requests.

    Asked to stream (ADK's ``StreamingMode.SSE``), it sends a text word by word as partial
    responses first, then the whole, as Gemini's streaming does."""

    model: str = "scripted"
    steps: list[Step] = Field(default_factory=list)
    requests: list[LlmRequest] = Field(default_factory=list)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(llm_request.model_copy(deep=True))
        part = self.steps.pop(0)(llm_request)
        if stream and part.text:
            for word in part.text.split():
                chunk = types.Content(role="model", parts=[types.Part(text=word)])
                yield LlmResponse(content=chunk, partial=True)
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def call(name: str, args: dict[str, Any]) -> Step:
    return lambda request: types.Part(function_call=types.FunctionCall(name=name, args=args))


def say(text: str) -> Step:
    return lambda request: types.Part(text=text)


def echo_tool_result(prefix: str) -> Step:
    """Answers with the last function response's output (what the tool gave the model)."""

    def step(request: LlmRequest) -> types.Part:
        last = request.contents[-1].parts or []
        response = next(p.function_response for p in last if p.function_response)
        return types.Part(text=f"{prefix}{(response.response or {}).get('output')}")

    return step


def system_of(request: LlmRequest) -> str:
    return str(request.config.system_instruction or "")


def tools_of(request: LlmRequest) -> list[str]:
    return [
        d.name or ""
        for tool in request.config.tools or []
        if isinstance(tool, types.Tool)
        for d in tool.function_declarations or []
    ]
