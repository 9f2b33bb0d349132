"""The shapes the LLM must answer in. Adapters validate answers into these models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ExtractedFact(_Answer):
    content: str = Field(description="One atomic, self-contained statement.")
    scope: Literal["user", "agent"]
    source_messages: list[int] = Field(
        default_factory=list, description="Numbers of the messages the fact comes from."
    )


class ExtractedFacts(_Answer):
    facts: list[ExtractedFact] = Field(default_factory=list)


class FactDecision(_Answer):
    fact: int = Field(description="Number of the new fact this decision is about.")
    action: Literal["ADD", "UPDATE", "DELETE", "NONE"]
    target_id: str | None = Field(default=None, description="Id of the existing fact.")
    text: str | None = Field(default=None, description="Final text for ADD, UPDATE or DELETE.")
    reason: str = ""


class FactDecisions(_Answer):
    decisions: list[FactDecision] = Field(default_factory=list)


class ExtractedReflections(_Answer):
    agent: list[str] = Field(default_factory=list)
    user: list[str] = Field(default_factory=list)
    session: list[str] = Field(default_factory=list)


class ConsolidatedText(_Answer):
    content: str


class ChosenMemories(_Answer):
    relevant: list[int] = Field(
        default_factory=list,
        description="Numbers of the memories that help answer, the most useful first.",
    )


class AnsweringMemories(_Answer):
    answering: list[int] = Field(
        default_factory=list,
        description="Numbers of the memories that answer the question; empty if none does.",
    )


class MoreQueries(_Answer):
    queries: list[str] = Field(
        default_factory=list, description="Other ways to search for the answer, one each."
    )
