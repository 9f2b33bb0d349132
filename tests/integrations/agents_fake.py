"""A scripted ``agents`` Model: each call answers with the next function of the script."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from agents.items import ModelResponse, TResponseInputItem
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

Step = Callable[[str | None, list[TResponseInputItem]], list[Any]]


class ScriptedModel(Model):
    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.instructions: list[str | None] = []
        self.tools: list[list[str]] = []

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: Any,
        tools: list[Any],
        output_schema: Any,
        handoffs: Any,
        tracing: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        self.instructions.append(system_instructions)
        self.tools.append([t.name for t in tools])
        items = [{"role": "user", "content": input}] if isinstance(input, str) else list(input)
        output = self.steps.pop(0)(system_instructions, items)  # type: ignore[arg-type]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


def text(reply: str) -> list[Any]:
    content = [ResponseOutputText(text=reply, type="output_text", annotations=[])]
    message = ResponseOutputMessage(
        id="__fake_id__", role="assistant", status="completed", type="message", content=content
    )
    return [message]


def call(name: str, arguments: str, call_id: str = "c1") -> list[Any]:
    return [
        ResponseFunctionToolCall(
            type="function_call", name=name, arguments=arguments, call_id=call_id, id="__fake_id__"
        )
    ]


def answer(instructions: str | None, items: list[Any]) -> list[Any]:
    """A question searches memory, a tool's output is read back, anything else is noted."""
    last = items[-1]
    if last.get("type") == "function_call_output":
        return text(f"memory says: {last['output']}")
    content = str(last.get("content", ""))
    if content.endswith("?"):
        return call("search_facts", json.dumps({"query": content}), call_id=f"c{len(items)}")
    return text("Noted.")


class AnsweringModel(ScriptedModel):
    """``answer`` for every call, however many runs."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[list[Any]] = []

    async def get_response(
        self, system_instructions: str | None, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else list(input)
        self.inputs.append(items)
        self.steps = [answer]
        return await super().get_response(system_instructions, input, *args, **kwargs)
