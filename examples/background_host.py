"""A host that forms memories in the background after each turn.

``record_messages`` returns at once; when enough has been said, formation starts as a
background task, and the next prompt's context reflects it. Shutdown waits for it.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from eden_memory import EdenMemoryConfig, new_message, open_memory
from eden_memory.demo.lookup_model import LookupModel
from eden_memory.domain.settings import FormationSettings, MemorySettings
from eden_memory.testing import KeywordEmbedder, ScriptedLLM, memory_stores
from examples.common import AGENT

MODEL = LookupModel(facts={"I live in Lyon.": [("Alice lives in Lyon", "user")]})
TURNS = ["Hi!", "I live in Lyon.", "What's the weather like?", "Thanks, bye."]


async def main() -> str:
    # Form after every 4 messages (the default waits for 45 messages or 1,500 tokens).
    settings = MemorySettings(formation=FormationSettings(message_interval=4))
    config = EdenMemoryConfig(memory=settings)
    llm = ScriptedLLM(MODEL)
    async with open_memory(
        config, llm=llm, store=memory_stores(), embedder=KeywordEmbedder()
    ) as memory:
        chat = memory.conversation(AGENT, "s1", ["alice"])
        for text in TURNS:
            said = new_message("user", text, datetime.now(UTC), "alice")
            reply = new_message("agent", "(the model's answer)", datetime.now(UTC))
            recorded = await memory.record_messages(chat, [said, reply])  # returns at once
            print(f"turn {text!r}: formation started = {recorded.formation_started}")
        await memory.wait_for_background()  # a host does this at shutdown
        context = (await memory.get_context(chat)).xml
    print(context)
    return context


if __name__ == "__main__":
    asyncio.run(main())
