"""How a batch of messages is shown to the model: numbered, timed, attributed."""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.domain.models import Message
from eden_memory.domain.xml_context import escape


def render_conversation(messages: Sequence[Message]) -> str:
    lines = []
    for number, message in enumerate(messages, start=1):
        who = message.role.value
        author = ", ".join(a for a in (message.author_id, message.author_name) if a)
        if author:
            who += f" ({escape(author)})"
        when = message.sent_at.strftime("%Y-%m-%d %H:%M")
        lines.append(f"[{number}] {when} {who}: {escape(message.text)}")
    return "\n".join(lines)


def instructions_block(memory_instructions: str) -> str:
    """The agent's own note on what deserves remembering (as v1 users could set)."""
    text = memory_instructions.strip()
    if not text:
        return ""
    return (
        "\n<memory_instructions>\nThe agent's owner asks you to pay attention to this:\n"
        f"{escape(text)}\n</memory_instructions>\n"
    )
