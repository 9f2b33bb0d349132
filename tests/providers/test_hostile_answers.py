"""Every provider adapter against hostile answers: each fails with one of the library's errors,
on one line, naming the HTTP status and quoting the start of what it was sent."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from eden_memory.domain.errors import EdenMemoryError, InvalidLLMOutputError, ProviderError
from tests.providers import gemini_wire, openai_wire
from tests.providers.hostile import ADAPTERS, BODIES, SDK_READS, Adapter, Body, broken, dotted
from tests.providers.hostile_breaks import BREAKS, Break
from tests.providers.standin import Recorded, Reply, StandIn

Serve = Callable[[Adapter, Callable[[Recorded], Reply]], Any]


@pytest.fixture
async def serve() -> AsyncIterator[Serve]:
    """Builds an adapter against a stand-in that answers every request with ``respond``."""
    opened: list[tuple[StandIn, Any]] = []

    def start(adapter: Adapter, respond: Callable[[Recorded], Reply]) -> Any:
        wire = openai_wire if adapter.wire == "openai" else gemini_wire
        server = StandIn(respond, wire.authorize).__enter__()
        made = adapter.make(server.url)
        opened.append((server, made))
        return made

    yield start
    for server, made in opened:
        await made.aclose()
        server.__exit__(None, None, None)


def assert_reported(error: BaseException, shows: str) -> None:
    message = str(error)
    assert "\n" not in message, message
    assert "\r" not in message, message
    assert len(message) < 600, message
    assert "HTTP 200" in message, message
    assert shows in message, message


# google-genai's converters iterate what should be a list: its TypeError is read as the
# answer's fault, quoting the SDK's message (it hands back no body to quote).
SDK_SHAPE = "not the API's shape; the SDK's message:"
SCALAR_BREAK = Break(SDK_READS, "embeddings a number", "embeddings", 5, SDK_SHAPE)
CASES = [pytest.param(name, body) for name in ADAPTERS for body in BODIES]


@pytest.mark.parametrize(("name", "body"), CASES, ids=lambda value: getattr(value, "name", value))
async def test_a_body_that_is_not_the_api_s_answer_is_a_provider_error_quoting_it(
    serve: Serve, name: str, body: Body
) -> None:
    adapter = ADAPTERS[name]
    made = serve(adapter, lambda _: body.reply)

    with pytest.raises(ProviderError) as caught:
        await adapter.ask(made)

    assert not isinstance(caught.value, InvalidLLMOutputError)
    assert_reported(caught.value, body.quoted_by(name))


@pytest.mark.parametrize(
    "change",
    [*BREAKS, SCALAR_BREAK],
    ids=lambda change: f"{change.adapter}: {change.name}",
)
async def test_a_field_of_the_wrong_type_or_missing_is_a_provider_error_naming_it(
    serve: Serve, change: Break
) -> None:
    adapter = ADAPTERS[change.adapter]

    def respond(sent: Recorded) -> Reply:
        return Reply(200, broken(adapter.valid(sent), dotted(change.path), change.value))

    with pytest.raises(ProviderError) as caught:
        await adapter.ask(serve(adapter, respond))

    assert_reported(caught.value, change.quoted)


@pytest.mark.parametrize("name", list(ADAPTERS))
async def test_the_valid_answers_of_the_table_are_accepted(serve: Serve, name: str) -> None:
    adapter = ADAPTERS[name]
    made = serve(adapter, lambda sent: Reply(200, adapter.valid(sent)))
    assert await adapter.ask(made) is not None


async def test_a_huge_html_page_is_quoted_in_a_few_hundred_characters(serve: Serve) -> None:
    page = "<html>" + "<p>maintenance</p>\n" * 50_000 + "</html>"
    adapter = ADAPTERS["openai chat"]
    made = serve(adapter, lambda _: Reply(200, page, content_type="text/html"))

    with pytest.raises(EdenMemoryError) as caught:
        await adapter.ask(made)

    assert_reported(caught.value, "<html><p>maintenance</p> <p>maintenance</p>")


@pytest.mark.parametrize("name", ["gemini", "openai chat", "openai responses"])
async def test_an_answer_text_nested_too_deep_is_invalid_output_not_a_recursion_error(
    serve: Serve, name: str
) -> None:
    """google-genai parsed the answer's text itself, before any bound, and let the
    ``RecursionError`` of 100,000 nested lists out."""
    adapter = ADAPTERS[name]
    nested = "[" * 100_000
    bodies = {
        "gemini": gemini_wire.generate_body(nested),
        "openai chat": openai_wire.chat_body(nested),
        "openai responses": openai_wire.response_body(nested),
    }
    made = serve(adapter, lambda _: Reply(200, bodies[name]))

    with pytest.raises(InvalidLLMOutputError, match="malformed JSON"):
        await adapter.ask(made)
