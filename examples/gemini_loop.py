"""The same loop with Gemini: the context as system instruction, ``search_facts`` declared.

Automatic function calling is off so the host decides what runs. Run with
``GEMINI_API_KEY`` (or ``GOOGLE_API_KEY``) set::

    python -m examples.gemini_loop
"""

from __future__ import annotations

import asyncio

from google import genai
from google.genai import types

from eden_memory import Conversation, MemoryService
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, tools_for
from examples.common import AGENT, remembering_memory


async def answer(
    client: genai.Client,
    memory: MemoryService,
    conversation: Conversation,
    question: str,
    model: str = "gemini-3-flash-preview",
) -> str:
    context = await memory.get_context(conversation)
    declarations = [
        types.FunctionDeclaration(**d) for d in tools_for(memory, conversation, "gemini")
    ]
    config = types.GenerateContentConfig(
        system_instruction="You are a support assistant.\n" + context.xml,
        tools=[types.Tool(function_declarations=declarations)] if declarations else None,
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    contents: list[types.Content] = [types.Content(role="user", parts=[types.Part(text=question)])]
    handler = SearchFactsHandler(memory, conversation)
    for _ in range(4):
        reply = await client.aio.models.generate_content(
            model=model, contents=contents, config=config
        )
        calls = reply.function_calls or []
        if not calls:
            return reply.text or ""
        if reply.candidates and reply.candidates[0].content:
            contents.append(reply.candidates[0].content)
        results = [await handler.handle(call) for call in calls]
        parts = [
            types.Part(function_response=types.FunctionResponse(**r.gemini_response()))
            for r in results
        ]
        contents.append(types.Content(role="user", parts=parts))
    return "(no answer after several tool calls)"


async def main(client: genai.Client | None = None) -> str:
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        text = await answer(client or genai.Client(), memory, chat, "What is my email address?")
        print(text)
        return text


if __name__ == "__main__":
    asyncio.run(main())
