"""A host that forms memories in the background after each turn.

    pip install -e ".[embedded]"
    python examples/background_host.py              # offline: a scripted model forms memory
    python examples/background_host.py --real       # the configured LLM forms it
                                                    # (EDEN_MEMORY_LLM_PROVIDER, its key)

``record_messages`` returns at once; when enough has been said, formation starts as a
background task, and the next prompt's context reflects it. Shutdown waits for it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from eden_memory import EdenMemoryConfig, new_message, open_memory
from eden_memory.demo.alice import AGENT, run_example
from eden_memory.demo.lookup_model import LookupModel
from eden_memory.domain.settings import FormationSettings, MemorySettings
from eden_memory.testing import KeywordEmbedder, ScriptedLLM, memory_stores

MODEL = LookupModel(facts={"I live in Lyon.": [("Alice lives in Lyon", "user")]})
TURNS = ["Hi!", "I live in Lyon.", "What's the weather like?", "Thanks, bye."]


async def main(real: bool = False) -> str:
    # Form after every 4 messages (the default waits for 45 messages or 1,500 tokens).
    settings = MemorySettings(formation=FormationSettings(message_interval=4))
    config = EdenMemoryConfig(memory=settings)  # and the provider from EDEN_MEMORY_* settings
    llm = None if real else ScriptedLLM(MODEL)
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
    run_example(main)
