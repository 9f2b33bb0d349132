"""Reflection extraction: hierarchical, aware of the current memory and of the new facts.

A small model (issue 15) filed greetings word for word, the speakers' own first-person lines,
and once the whole conversation line by line ("Melanie: ...") as notes. The prompt asks for
a few notes per level, each opening with whom it is about, and shows one short invented
conversation with the notes it yields and the two answers it must not give (a copied line, a
first-person line); ``extraction`` refuses a copied message or a first-person note, as it
does for facts, and keeps at most the formation's cap a level (``domain.formation_caps``;
``NOTES_PER_SCOPE`` at the base length), which the prompt states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from eden_memory.application.prompts.conversation import (
    DATA_NOTE,
    instructions_block,
    render_conversation,
)
from eden_memory.domain.models import ConsolidatedMemory, Message, Reflection, Role
from eden_memory.domain.reflection_checks import NOTES_PER_SCOPE
from eden_memory.domain.scopes import HIERARCHY, Scope
from eden_memory.domain.xml_context import escape

SYSTEM = """You write a few short notes for an AI agent's memory: what the agent learned from a
conversation and should keep in mind next time. The notes ride in every prompt: few and useful.

Levels, one list each:
{levels}

Every note:
- starts with whom it is about, in the third person: "Ana ...", "The agent ...";
  never "I", "me", "my" or "we";
- is your own short summary of what the agent should know or do, never a copied message, a
  greeting or thanks: write "she", "her", "his" where the message says "I", "my";
- is one sentence, shorter than the message it comes from, at most {max_words} words.
At most {per_scope} notes a level. Leave out what the memory or the stored facts below
already say; an empty list is right for a level with nothing new.{hierarchy}

{data_note}"""

# Seeds 000/001: each level holds only what a broader one did not capture. Measured with the
# local model, the same note was filed under user and under session
# (docs/record/benchmarks-history.md).
HIERARCHY_RULE = """
Fill the levels from the broadest, in this order: {order}. A note goes to the broadest
level it fits, and only there: a narrower level holds only what the broader ones did not
capture, never the same note again in other words."""

# Each definition on one line: the echo check (``domain.scaffolding``) reads the prompt by lines.
LEVELS = {
    Scope.AGENT: '- "agent": about the agent itself, for its talks with anyone: its style, '
    "its projects, lessons about its work; never about the people (empty if it only listened).",
    Scope.USER: '- "user": about the people in this conversation: how they want answers, '
    "their goals, what to follow up.",
    Scope.SESSION: '- "session": for the rest of this conversation only: its goal, what '
    "is still open.",
}

_SAID = datetime(2024, 3, 13, 10, 2, tzinfo=UTC)  # a Wednesday
EXAMPLE_MESSAGES = (
    Message(
        id="x1",
        role=Role.USER,
        text="Hi! Last Sunday I ran my first 10k. Keep answers short, I'm on my phone.",
        sent_at=_SAID,
        author_name="Ana",
    ),
    Message(
        id="x2",
        role=Role.AGENT,
        text="Congratulations! Short answers it is.",
        sent_at=_SAID + timedelta(minutes=1),
    ),
    Message(
        id="x3",
        role=Role.USER,
        text="Thanks! Now I want a plan for a half marathon in October.",
        sent_at=_SAID + timedelta(minutes=2),
        author_name="Ana",
    ),
)
EXAMPLE_NOTES = {
    Scope.AGENT: ("The agent is asked for training plans; give them week by week.",),
    Scope.USER: (
        "Ana wants short answers; she often writes from her phone.",
        "Ana ran her first 10k on Sunday 10 March 2024 and now aims at a half marathon.",
    ),
    Scope.SESSION: ("Ana still needs her half-marathon plan for October.",),
}
EXAMPLE_WRONG = (
    '"Ana: Hi! Last Sunday I ran my first 10k." (a copied message)',
    '"Ana ran my first 10k, I\'m on my phone." (copied words in the first person)',
)


def example(scopes: Sequence[Scope]) -> str:
    """The worked example, its answer limited to the levels in use."""
    answer = ", ".join(
        f'"{s.value}": [{", ".join(f"{chr(34)}{n}{chr(34)}" for n in EXAMPLE_NOTES[s])}]'
        for s in scopes
    )
    return (
        "Example (invented people; use only what the real conversation says):\n"
        f"{render_conversation(EXAMPLE_MESSAGES)}\n"
        f"Answer: {{{answer}}}\n"
        f"Never a note like {' or '.join(EXAMPLE_WRONG)}."
    )


def _memory_block(
    scope: Scope, blob: ConsolidatedMemory | None, recent: Sequence[Reflection]
) -> str:
    lines = [escape(blob.content)] if blob is not None and blob.content else []
    lines += [f"- {escape(r.content)}" for r in recent]
    if not lines:
        return ""
    return f"{scope.value} memory now holds:\n" + "\n".join(lines) + "\n"


def reflection_prompt(
    messages: Sequence[Message],
    scopes: Sequence[Scope],
    blobs: Mapping[Scope, ConsolidatedMemory],
    recent: Mapping[Scope, Sequence[Reflection]],
    new_facts: Sequence[str],
    max_words: int,
    memory_instructions: str = "",
    per_scope: int = NOTES_PER_SCOPE,
) -> tuple[str, str]:
    active = [s for s in HIERARCHY if s in scopes]
    levels = "\n".join(LEVELS[s] for s in active)
    memory = "".join(_memory_block(s, blobs.get(s), recent.get(s, ())) for s in active)
    facts = "".join(f"- {escape(text)}\n" for text in new_facts)
    stored = f"Facts just stored (do not repeat them):\n{facts}" if facts else ""
    keys = ", ".join(f'"{s.value}": [...]' for s in active)
    prompt = f"""{memory}{stored}{instructions_block(memory_instructions)}
{render_conversation(messages)}

Write at most {per_scope} notes for each level ({", ".join(s.value for s in active)}),
each in your own words, starting with whom it is about, and at one level only.
Answer as JSON: {{{keys}}}"""
    order = ", then ".join(s.value for s in active)
    hierarchy = HIERARCHY_RULE.format(order=order) if len(active) > 1 else ""
    system = SYSTEM.format(
        levels=levels,
        max_words=max_words,
        per_scope=per_scope,
        hierarchy=hierarchy,
        data_note=DATA_NOTE,
    )
    return system + "\n\n" + example(active), prompt
