"""The same loop with Gemini: the context as system instruction, ``search_facts`` declared.

    pip install -e ".[embedded,gemini]"
    python examples/gemini_loop.py                  # offline: a scripted stand-in (below)
    python examples/gemini_loop.py --real           # gemini-3-flash-preview; needs
                                                    # GEMINI_API_KEY (or GOOGLE_API_KEY)

Automatic function calling is off so the host decides what runs. ``Ask`` is the one call to
the model: ``client.aio.models.generate_content`` with ``--real``, a function that answers
like it offline.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable

try:
    from google import genai
    from google.genai import types
except ImportError:  # without the extra: one line saying which
    sys.exit('error: this example needs the google-genai package: pip install -e ".[gemini]"')

from eden_memory import Conversation, MemoryService
from eden_memory.adapters.tools.search_facts import SearchFactsHandler, tools_for
from eden_memory.demo.alice import AGENT, remembering_memory, run_example

Ask = Callable[
    [list[types.Content], types.GenerateContentConfig], Awaitable[types.GenerateContentResponse]
]


async def answer(ask: Ask, memory: MemoryService, conversation: Conversation, question: str) -> str:
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
        reply = await ask(contents, config)
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


async def offline(
    contents: list[types.Content], config: types.GenerateContentConfig
) -> types.GenerateContentResponse:
    """Answers like the API, offline: a search_facts call first, then the tool's output."""
    last = contents[-1].parts or []
    found = [p.function_response.response or {} for p in last if p.function_response]
    if found:
        part = types.Part(text=f"From memory: {found[0].get('output')}")
    else:
        part = types.Part(
            function_call=types.FunctionCall(name="search_facts", args={"query": ["email"]})
        )
    content = types.Content(role="model", parts=[part])
    return types.GenerateContentResponse(candidates=[types.Candidate(content=content)])


def real_model(model: str = "gemini-3-flash-preview") -> Ask:
    """The Gemini Developer API (``GEMINI_API_KEY`` or ``GOOGLE_API_KEY``)."""
    client = genai.Client()

    async def ask(
        contents: list[types.Content], config: types.GenerateContentConfig
    ) -> types.GenerateContentResponse:
        return await client.aio.models.generate_content(
            model=model, contents=contents, config=config
        )

    return ask


async def main(real: bool = False) -> str:
    ask = real_model() if real else offline
    async with remembering_memory() as memory:
        chat = memory.conversation(AGENT, "today", ["alice"])
        text = await answer(ask, memory, chat, "What is my email address?")
        print(text)
        return text


if __name__ == "__main__":
    run_example(main, keys=["GEMINI_API_KEY", "GOOGLE_API_KEY"])
