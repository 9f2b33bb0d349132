"""Fact extraction: the fast model, the conversation only, no memory context."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from eden_memory.application.prompts.conversation import instructions_block, render_conversation
from eden_memory.domain.models import Message
from eden_memory.domain.scopes import Scope

SYSTEM = """You keep the long-term fact store of an AI agent. Facts are cold storage: they are not
shown to the agent by default, it finds them by searching when it needs a specific answer.

A fact is worth keeping only if it is all of these:
- searchable: it answers a concrete question (who, what, where, when, how much);
- specific: it names people, places, organisations, numbers, dates, addresses or products;
- enduring: it will most likely still be true a month from now;
- self-contained: it makes sense on its own, without the conversation (write names, not
  "he" or "the user"; write absolute dates when the conversation gives them).

Leave out:
- preferences, habits and tastes in how to behave or answer ("likes short replies");
- what is going on right now in this conversation ("we are fixing the login bug");
- opinions and judgements ("thinks React is better");
- short-lived states ("the server is down at the moment");
- anything the agent merely said or suggested without the user confirming it.
Those belong to a different kind of memory, kept elsewhere.

Each fact is one sentence of at most {max_words} words. Do not repeat a fact. Return an empty
list when there is nothing worth keeping; that is a good answer for most small talk."""

SCOPES = {
    Scope.USER: '"user": about this user, useful in any later conversation with this same user.',
    Scope.AGENT: '"agent": useful to the agent in conversations with anyone (projects, shared '
    "knowledge, the world, other people named in a way that makes sense to everyone).",
}


def fact_extraction_prompt(
    messages: Sequence[Message],
    scopes: Collection[Scope],
    max_words: int,
    memory_instructions: str = "",
) -> tuple[str, str]:
    allowed = "\n".join(f"- {SCOPES[s]}" for s in (Scope.USER, Scope.AGENT) if s in scopes)
    prompt = f"""Give every fact exactly one scope, chosen from these (no others are allowed):
{allowed}
{instructions_block(memory_instructions)}
For each fact, list the numbers of the messages it comes from in "source_messages".

<conversation>
{render_conversation(messages)}
</conversation>

Answer as JSON: {{"facts": [{{"content": "...", "scope": "...", "source_messages": [1]}}]}}"""
    return SYSTEM.format(max_words=max_words), prompt
