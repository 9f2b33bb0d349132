"""The fields the Gemini LLM adapter reads from a ``generateContent`` answer, with their types.

Checked by ``provider_answers.read_answer`` on the body as it came
(``should_return_http_response``), not by the SDK: google-genai parses the answer's text as
JSON before anything can bound it (issue 26), and lets a token count of ``-3`` through. The
REST API writes camelCase; snake_case is read too.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

Count = Annotated[int, Field(strict=True, ge=0)]


class Loose(BaseModel):
    """A part of an answer: unknown fields are ignored, known ones validated."""

    model_config = ConfigDict(
        extra="ignore", frozen=True, alias_generator=to_camel, populate_by_name=True
    )


class Part(Loose):
    text: str | None = None
    thought: bool | None = None


class Content(Loose):
    parts: list[Part] | None = None


class Candidate(Loose):
    content: Content | None = None
    finish_reason: str | None = None

    def text(self) -> str | None:
        """The answer's text parts joined, thoughts left out (as the SDK's ``response.text``);
        None when it has none."""
        parts = self.content.parts if self.content else None
        texts = [p.text for p in parts or [] if p.text is not None and not p.thought]
        return "".join(texts) if texts else None


class PromptFeedback(Loose):
    block_reason: str | None = None


class UsageMetadata(Loose):
    prompt_token_count: Count | None = None
    candidates_token_count: Count | None = None
    thoughts_token_count: Count | None = None


class GenerateAnswer(Loose):
    """``models/{model}:generateContent``."""

    candidates: list[Candidate] | None = None
    prompt_feedback: PromptFeedback | None = None
    usage_metadata: UsageMetadata | None = None
    model_version: str | None = None

    def tokens(self) -> tuple[int, int]:
        """Input tokens, and answer plus thinking tokens: Gemini bills thoughts as output."""
        usage = self.usage_metadata or UsageMetadata()
        answer = (usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0)
        return usage.prompt_token_count or 0, answer
