"""A plain OpenAI Chat Completions loop with memory.

    pip install -e ".[embedded,openai]"
    python examples/openai_loop.py                  # offline: a scripted stand-in (below)
    python examples/openai_loop.py --real           # gpt-4.1-mini; needs OPENAI_API_KEY
                                                    # (OPENAI_BASE_URL: any compatible server)

The memory context goes into the system prompt; when the model calls ``search_facts`` the
handler answers it, and the loop asks the model again. ``Ask`` is the one call to the model:
``client.chat.completions.create`` with ``--real``, a function that answers like it offline.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

try:
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletion
except ImportError:  # without the extra: one line saying which
    sys.exit('error: this example needs the openai package: pip install -e ".[openai]"')

from eden_memory import Conversation, MemoryService
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, tools_for
from eden_memory.demo.alice import AGENT, remembering_memory, run_example

Ask = Callable[[list[Any], Any], Awaitable[ChatCompletion]]


async def answer(ask: Ask, memory: MemoryService, conversation: Conversation, question: str) -> str:
    context = await memory.get_context(conversation)
    messages: list[Any] = [
        {"role": "system", "content": "You are a support assistant.\n" + context.xml},
        {"role": "user", "content": question},
    ]
    tools: Any = tools_for(memory, conversation, "openai_chat")
    handler = SearchFactsHandler(memory, conversation)
    for _ in range(4):  # a few tool rounds at most
        message = (await ask(messages, tools)).choices[0].message
        if not message.tool_calls:
            # The turn, as the SDK has it: the question and the SDK's own reply object. (The
            # search_facts round is memory read back, not something said: left out.)
            await memory.record_messages(conversation, [messages[1], message])
            return message.content or ""
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            messages.append((await handler.handle(call)).openai_chat_message())
    return "(no answer after several tool calls)"


async def offline(messages: list[Any], tools: Any) -> ChatCompletion:
    """Answers like the API, offline: a search_facts call first, then the tool's output."""
    last = messages[-1]
    if last["role"] == "tool":
        message: dict[str, Any] = {
            "role": "assistant",
            "content": f"From memory: {last['content']}",
        }
    else:
        call = {"name": "search_facts", "arguments": json.dumps({"query": ["email"]})}
        message = {
            "role": "assistant",
            "tool_calls": [{"id": "c1", "type": "function", "function": call}],
        }
    choice = {"index": 0, "message": message, "finish_reason": "stop"}
    body = {"id": "offline", "object": "chat.completion", "created": 0, "model": "offline"}
    return ChatCompletion.model_validate({**body, "choices": [choice]})


def real_model(model: str = "gpt-4.1-mini") -> Ask:
    """The API itself (``OPENAI_API_KEY``; ``OPENAI_BASE_URL`` for another server)."""
    client = AsyncOpenAI()

    async def ask(messages: list[Any], tools: Any) -> ChatCompletion:
        return await client.chat.completions.create(model=model, messages=messages, tools=tools)

    return ask


async def main(real: bool = False) -> str:
    ask = real_model() if real else offline
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        text = await answer(ask, memory, chat, "What is my email address?")
        print(text)
        return text


if __name__ == "__main__":
    run_example(main, keys=["OPENAI_API_KEY"])
