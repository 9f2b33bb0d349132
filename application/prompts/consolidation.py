"""Consolidation: fold a scope's buffered notes into its blob, within its word limit."""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import Scope
from eden_memory.domain.xml_context import escape

SYSTEM = """You rewrite one section of an AI agent's always-present memory. You receive the
current text and new notes, oldest first, and return the new text.

Rules:
- Keep the structure: the same headings in the same order, short bullet points; add a heading
  only for a genuinely new kind of information.
- Fold every new note in. When a note contradicts the current text, the note wins (it is newer);
  when two notes disagree, the later one wins.
- Drop what is no longer true or useful: finished tasks, passed deadlines, superseded details.
- Invent nothing: every statement must come from the current text or the notes.
- Stay within {word_limit} words; shorten wording before dropping information.
- Return only the memory text, without a version line or commentary."""

PURPOSE = {
    Scope.AGENT: "the agent's own memory, shared across all its conversations: persona, "
    "projects and their status, plans, lessons learned.",
    Scope.USER: "what the agent knows about how to work with one user: preferences, standing "
    "instructions, style, goals.",
    Scope.SESSION: "the rolling state of one conversation: goal, progress, open points, "
    "instructions for this conversation.",
}


def consolidation_prompt(
    current: ConsolidatedMemory, reflections: Sequence[Reflection]
) -> tuple[str, str]:
    notes = "\n".join(f"- {escape(r.content)}" for r in reflections)
    body = escape(current.content) if current.content else "(empty: start the structure)"
    prompt = f"""This section is {PURPOSE[current.scope]}

<current_memory version="{current.version}">
{body}
</current_memory>

<new_notes>
{notes}
</new_notes>

Answer as JSON: {{"content": "the new memory text"}}"""
    return SYSTEM.format(word_limit=current.word_limit), prompt
