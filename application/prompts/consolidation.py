"""Consolidation: fold a scope's buffered notes into its blob, within its word limit.

A small model (issue 15) answered every consolidation with the prompt's own scaffolding: its
``<current_memory>`` tags, the "(empty: start the structure)" placeholder, the line that
said what the section was for. So the prompt has no tags and no placeholder (an empty
section is simply not shown), says what the section is for in the system text only, and
shows one short worked example with invented content of the answer's shape. The agent's
own section also gets the agent's memory instructions, as the rest of its formation does.
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import Scope
from eden_memory.domain.xml_context import escape

SYSTEM = """You keep one section of an AI agent's memory up to date: {purpose}
You are given new notes, and the section's current text when it has one. Write the section's
new text.

Rules:
- Short lines under a few headings; keep the headings you find, in their order, and add one
  only for a new kind of information.
- Fold every note in. When a note contradicts the text, the note wins; between two notes,
  the later one wins.
- Drop what is finished or no longer true.
- Invent nothing, and copy no instructions: only what the text and the notes say.
- At most {word_limit} words; shorten wording before dropping information.

Example with invented content. Current text:
Work:
- Ana's nursing exam is on 10 May.
New notes:
- Ana moved her exam to 24 May.
- Ana wants answers in Portuguese.
New text:
Work:
- Ana's nursing exam is on 24 May.
Style:
- Ana wants answers in Portuguese."""

PURPOSE = {
    Scope.AGENT: "the agent's own memory for all its conversations: persona, projects and "
    "their status, plans, lessons learned.",
    Scope.USER: "what the agent knows about working with one person: preferences, standing "
    "instructions, style, goals.",
    Scope.SESSION: "the state of one conversation: goal, progress, open points, instructions "
    "for this conversation.",
}


def consolidation_prompt(
    current: ConsolidatedMemory, reflections: Sequence[Reflection], instructions: str = ""
) -> tuple[str, str]:
    """The system text and the prompt; ``instructions``, the agent's memory instructions,
    shape the agent's own section (seed 004: its consolidation used them as context)."""
    notes = "\n".join(f"- {escape(r.content)}" for r in reflections)
    if current.content:
        start = f"Current text:\n{escape(current.content)}\n\nNew notes, oldest first:\n"
    else:
        start = "The section has no text yet. Write it from these notes, oldest first:\n"
    asked = instructions_for(current.scope, instructions)
    if asked:
        start = f"What the agent's owner wants this memory to keep:\n{escape(asked)}\n\n{start}"
    prompt = f'{start}{notes}\n\nAnswer as JSON: {{"content": "the new text of the section"}}'
    return SYSTEM.format(purpose=PURPOSE[current.scope], word_limit=current.word_limit), prompt


def instructions_for(scope: Scope, instructions: str) -> str:
    """The instructions a scope's consolidation follows: the agent's section only. A user's
    or a session's memory is about that person or conversation, whatever the agent keeps."""
    return instructions.strip() if scope is Scope.AGENT else ""
