"""A plain OpenAI Chat Completions loop with memory.

The memory context goes into the system prompt; when the model calls ``search_facts`` the
handler answers it, and the loop asks the model again. Run with ``OPENAI_API_KEY`` set::

    python -m examples.openai_loop
"""

from __future__ import annotations

import asyncio
from typing import Any

from openai import AsyncOpenAI

from eden_memory import Conversation, MemoryService
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, tools_for
from examples.common import AGENT, remembering_memory


async def answer(
    client: AsyncOpenAI,
    memory: MemoryService,
    conversation: Conversation,
    question: str,
    model: str = "gpt-4.1-mini",
) -> str:
    context = await memory.get_context(conversation)
    messages: list[Any] = [
        {"role": "system", "content": "You are a support assistant.\n" + context.xml},
        {"role": "user", "content": question},
    ]
    tools: Any = tools_for(memory, conversation, "openai_chat")
    handler = SearchFactsHandler(memory, conversation)
    for _ in range(4):  # a few tool rounds at most
        reply = await client.chat.completions.create(model=model, messages=messages, tools=tools)
        message = reply.choices[0].message
        if not message.tool_calls:
            # The turn, as the SDK has it: the question and the SDK's own reply object. (The
            # search_facts round is memory read back, not something said: left out.)
            await memory.record_messages(conversation, [messages[1], message])
            return message.content or ""
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            messages.append((await handler.handle(call)).openai_chat_message())
    return "(no answer after several tool calls)"


async def main(client: AsyncOpenAI | None = None) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        text = await answer(client or AsyncOpenAI(), memory, chat, "What is my email address?")
        print(text)
        return text


if __name__ == "__main__":
    asyncio.run(main())
