"""Hostile answers: what a broken server, proxy or gateway sends back with a 200.

Every provider adapter meets the same table (``BODIES``: HTML, bytes that are not UTF-8, an
empty body, JSON cut short, ...) and the changes to its own valid answer that break the
fields it reads (``hostile_breaks``). ``ADAPTERS`` builds each adapter against a stand-in and says
what a well-behaved server would have answered, so a test can break that answer.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from eden_memory.adapters.embedders.gemini import GeminiEmbedder
from eden_memory.adapters.embedders.openai import OpenAIEmbedder
from eden_memory.adapters.llms.gemini import GeminiLLM
from eden_memory.adapters.llms.openai import OpenAILLM
from eden_memory.domain.embedding_space import TextRole
from tests.providers import gemini_wire, openai_wire
from tests.providers.conftest import FAST
from tests.providers.schemas import GOOD, Facts, request
from tests.providers.standin import Recorded, Reply

DELETE = object()  # a break that removes the field instead of replacing it
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Adapter:
    name: str
    wire: Literal["openai", "gemini"]
    make: Callable[[str], Any]  # the stand-in's url -> the adapter
    ask: Callable[[Any], Awaitable[object]]
    valid: Callable[[Recorded], Any]  # the body a well-behaved server answers


def _tool_call(_: Recorded) -> dict[str, Any]:
    body = openai_wire.chat_body(None, finish_reason="tool_calls")
    call = {"id": "call_1", "type": "function", "function": {"name": "Facts", "arguments": GOOD}}
    body["choices"][0]["message"]["tool_calls"] = [call]
    return body


def _openai_llm(**settings: Any) -> Callable[[str], OpenAILLM]:
    return lambda url: OpenAILLM(api_key="sk-test", base_url=f"{url}/v1", **FAST, **settings)


def _generate(llm: Any) -> Awaitable[object]:
    return llm.generate(request("some-model"), Facts)  # type: ignore[no-any-return]


def _embed(embedder: Any) -> Awaitable[object]:
    return embedder.embed(["Alice likes tea", "Bob likes coffee"], TextRole.PASSAGE)  # type: ignore[no-any-return]


ADAPTERS = {
    adapter.name: adapter
    for adapter in (
        Adapter(
            "openai responses",
            "openai",
            _openai_llm(api="responses"),
            _generate,
            lambda _: openai_wire.response_body(GOOD),
        ),
        Adapter(
            "openai chat",
            "openai",
            _openai_llm(api="chat"),
            _generate,
            lambda _: openai_wire.chat_body(GOOD),
        ),
        Adapter(
            "openai chat tools",
            "openai",
            _openai_llm(api="chat", schema_mode="tools"),
            _generate,
            _tool_call,
        ),
        Adapter(
            "openai embedder",
            "openai",
            lambda url: OpenAIEmbedder(
                dimensions=8, api_key="sk-test", base_url=f"{url}/v1", **FAST
            ),
            _embed,
            lambda sent: openai_wire.embeddings_body(sent.body),
        ),
        Adapter(
            "gemini",
            "gemini",
            lambda url: GeminiLLM(api_key="test-key", base_url=url, **FAST),
            _generate,
            lambda _: gemini_wire.generate_body(GOOD),
        ),
        Adapter(
            "gemini embedder",
            "gemini",
            lambda url: GeminiEmbedder(
                output_dimensionality=8, api_key="test-key", base_url=url, **FAST
            ),
            _embed,
            lambda sent: gemini_wire.respond(sent).body,
        ),
    )
}


# google-genai's embed_content reads the body itself and hands none of it back: a body it
# parses into an empty answer (or whose text it decodes with replacement characters) can
# only be quoted as the SDK read it.
SDK_READS = "gemini embedder"
AS_THE_SDK_READ_IT = "the answer as the SDK read it: {}"


@dataclass(frozen=True)
class Body:
    """A whole body, the same for every adapter; ``shows`` is what the error must quote
    (``sdk_shows`` where the SDK read it, when that differs)."""

    name: str
    reply: Reply
    shows: str
    sdk_shows: str | None = None

    def quoted_by(self, adapter: str) -> str:
        return self.sdk_shows if adapter == SDK_READS and self.sdk_shows else self.shows


HTML = "<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>"
BODIES = [
    Body("html", Reply(200, HTML, content_type="text/html"), "<title>502 Bad Gateway</title>"),
    Body("not utf-8", Reply(200, b'{"oops": "\xff\xfe\xfd"}'), '{"oops": "', AS_THE_SDK_READ_IT),
    Body("empty", Reply(200, ""), "empty", AS_THE_SDK_READ_IT),
    Body(
        "json cut short",
        Reply(200, '{"id": "x", "choices": [{"ind'),
        '{"id": "x", "choices": [{"ind',
    ),
    Body("a json list", Reply(200, [1, 2, 3]), "[1, 2, 3]", AS_THE_SDK_READ_IT),
    Body("a json string", Reply(200, '"ok"'), '"ok"', AS_THE_SDK_READ_IT),
    Body("null", Reply(200, "null"), "null", AS_THE_SDK_READ_IT),
    Body(
        "a json number",
        Reply(200, "12345"),
        "body: 12345",
        "not the API's shape; the SDK's message:",
    ),
    Body(
        "plain text over lines",
        Reply(200, "upstream\r\nconnect error\x1b[31m or disconnect", content_type="text/plain"),
        "upstream connect error",
    ),
]


def dotted(path: str) -> Path:
    """``"choices.0.message"`` as ``("choices", 0, "message")``."""
    return tuple(int(key) if key.isdigit() else key for key in path.split("."))


def broken(body: Any, path: Path, value: Any) -> Any:
    """``body`` with the field at ``path`` set to ``value`` (or removed, for ``DELETE``)."""
    changed = copy.deepcopy(body)
    *parents, last = path
    holder = changed
    for key in parents:
        holder = holder[key]
    if value is DELETE:
        del holder[last]
    else:
        holder[last] = value
    return changed
