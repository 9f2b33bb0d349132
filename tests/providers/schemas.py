"""A small answer schema, shaped like the application's (a list and a flag)."""

from __future__ import annotations

from pydantic import BaseModel

from eden_memory.ports.llm import LLMRequest


class Facts(BaseModel):
    facts: list[str]
    complete: bool


GOOD = '{"facts": ["Alice lives in Lyon"], "complete": true}'
EXPECTED = Facts(facts=["Alice lives in Lyon"], complete=True)
MALFORMED = '{"facts": ["Alice lives in Ly'
OFF_SCHEMA = '{"facts": "Alice lives in Lyon"}'


def request(
    model: str, *, max_output_tokens: int | None = None, temperature: float | None = None
) -> LLMRequest:
    return LLMRequest(
        model=model,
        system="Extract the facts.",
        prompt="user: I moved to Lyon last year.",
        purpose="fact_extraction",
        max_output_tokens=max_output_tokens,
        temperature=temperature,
    )
