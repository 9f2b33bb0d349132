"""Reflection extraction: hierarchical, aware of the current memory and of the new facts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from eden_memory.application.prompts.conversation import instructions_block, render_conversation
from eden_memory.domain.models import ConsolidatedMemory, Message, Reflection
from eden_memory.domain.scopes import HIERARCHY, Scope
from eden_memory.domain.xml_context import escape

SYSTEM = """You curate the always-present memory of an AI agent: short interpreted notes that
shape how it behaves. They ride in every prompt, so each one must earn its place.

Work from the broadest level down, and never repeat at a lower level what a higher level,
the current memory or the newly stored facts already hold:
{levels}
Each reflection is one sentence of at most {max_words} words, written so the agent can act on
it later. Note changes ("now prefers...", "deadline moved to...") rather than restating what
memory already says. Empty lists are fine when nothing new and useful happened."""

LEVELS = {
    Scope.AGENT: """1. agent — what the agent should carry into every conversation with anyone:
   its persona and style as it evolves, ongoing projects and their state, plans and ideas,
   lessons about its community or domain, changes in the world it works in.""",
    Scope.USER: """2. user — what is particular to this one user and not agent-wide: how they want
   to be answered, standing instructions, skills and level, interests and goals, personal
   projects to follow up.""",
    Scope.SESSION: """3. session — what matters only for the rest of this conversation: its goal,
   what has been tried and where things stand, assets to keep at hand (links, files),
   instructions and corrections given for this conversation.""",
}


def _memory_block(
    scope: Scope, blob: ConsolidatedMemory | None, recent: Sequence[Reflection]
) -> str:
    body = escape(blob.content) if blob is not None and blob.content else "(empty)"
    notes = "\n".join(f"- {escape(r.content)}" for r in recent) or "(none)"
    return f"<{scope.value}_memory>\n{body}\nRecent notes:\n{notes}\n</{scope.value}_memory>"


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
    memory = "\n".join(_memory_block(s, blobs.get(s), recent.get(s, ())) for s in active)
    facts = "\n".join(f"- {escape(text)}" for text in new_facts) or "(none)"
    keys = ", ".join(f'"{s.value}": [...]' for s in active)
    prompt = f"""<current_memory>
{memory}
</current_memory>

<newly_stored_facts>
{facts}
</newly_stored_facts>
{instructions_block(memory_instructions)}
<conversation>
{render_conversation(messages)}
</conversation>

Only these levels are in use here: {", ".join(s.value for s in active)}.
Answer as JSON: {{{keys}}}"""
    return SYSTEM.format(levels=levels, max_words=max_words), prompt
