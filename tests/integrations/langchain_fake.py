"""LangChain chat models for tests that accept tools (LangChain's own fakes do not)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

Step = Callable[[list[BaseMessage]], AIMessage]


class ScriptedChatModel(BaseChatModel):
    steps: list[Any]
    prompts: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.prompts.append(messages)
        reply = self.steps.pop(0)(messages)
        return ChatResult(generations=[ChatGeneration(message=reply)])


class ToolTakingFakeModel(GenericFakeChatModel):
    """LangChain's own test model (``GenericFakeChatModel``: its replies, in order), which
    takes tools (binding them changes nothing but ``tools_bound``, their names at each call
    that had tools) and keeps the prompts it was sent."""

    prompts: list[list[BaseMessage]] = Field(default_factory=list)
    tools_bound: list[list[str]] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        self.tools_bound.append([getattr(tool, "name", "?") for tool in tools])
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.prompts.append(messages)
        return super()._generate(messages, *args, **kwargs)
