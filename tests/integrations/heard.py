"""What memory heard of a conversation: its messages as formation reads them."""

from __future__ import annotations

from eden_memory.application.conversation import Conversation
from tests.application.story import World


async def heard(world: World, chat: Conversation) -> str:
    """End the session and return the conversation its fact extraction was shown, one
    message a line (``[1] Mon 2026-03-02 09:00 user (alice): ...``)."""
    await world.memory.end_session(chat)
    prompt = world.llm.calls_for("fact_extraction")[-1].prompt
    return prompt.split("<conversation>")[1].split("</conversation>")[0]
