"""Reflection extraction: hierarchical, aware of the current memory and of the new facts.

A small model (issue 15) filed greetings word for word and the speakers' own first-person
lines as notes. The prompt shows what a note is by example (invented people), asks for the
third person, and frames the conversation as data; ``extraction`` also refuses a copied
message or a first-person note, as it does for facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from eden_memory.application.prompts.conversation import (
    DATA_NOTE,
    instructions_block,
    render_conversation,
)
from eden_memory.domain.models import ConsolidatedMemory, Message, Reflection
from eden_memory.domain.scopes import HIERARCHY, Scope
from eden_memory.domain.xml_context import escape

SYSTEM = """You write short notes for an AI agent's always-present memory: what it should keep in
mind about the people it talks with and its own work. The notes ride in every prompt, so each
must earn its place.

There are levels; work from the first down, and never repeat at a lower level what a higher
level, the current memory or the newly stored facts already hold:
{levels}

Rules for every note:
- An interpretation the agent can act on, in your own words; never a copied message, never a
  greeting or small talk.
- In the third person, naming the person ("Ana prefers..."), never "I" or "we".
- One sentence of at most {max_words} words. Note changes ("now prefers...", "moved the trip
  to...") rather than restating what memory already says.
- Empty lists are a good answer when nothing new and useful happened.

{data_note}"""

# Each example on one line: the echo check (``domain.scaffolding``) reads the prompt by lines.
LEVELS = {
    Scope.AGENT: """- agent: for every conversation with anyone: the agent's persona and style, its
  projects and their state, lessons about its domain. For example:
  "Several users ask for vegetarian options; offer them first.\"""",
    Scope.USER: """- user: about this one person: how they want answers, standing instructions,
  interests, goals, what to follow up. For example:
  "Ana likes brief answers and is preparing for a nursing exam in May.\"""",
    Scope.SESSION: """- session: only for the rest of this conversation: its goal, where things
  stand, open questions. For example:
  "Ana is choosing between two flats and still needs the second one's rent.\"""",
}


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
) -> tuple[str, str]:
    active = [s for s in HIERARCHY if s in scopes]
    levels = "\n".join(LEVELS[s] for s in active)
    memory = "".join(_memory_block(s, blobs.get(s), recent.get(s, ())) for s in active)
    facts = "".join(f"- {escape(text)}\n" for text in new_facts)
    stored = f"Facts just stored (do not repeat them):\n{facts}" if facts else ""
    keys = ", ".join(f'"{s.value}": [...]' for s in active)
    prompt = f"""{memory}{stored}{instructions_block(memory_instructions)}
{render_conversation(messages)}

Write the new notes for the levels in use here: {", ".join(s.value for s in active)}.
Answer as JSON: {{{keys}}}"""
    system = SYSTEM.format(levels=levels, max_words=max_words, data_note=DATA_NOTE)
    return system, prompt
