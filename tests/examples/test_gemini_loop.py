"""The Gemini loop example, offline against the stand-in and for real with a key.

Apart from the other examples: it needs only the ``gemini`` extra, so the Gemini adapters'
own check on google-genai 3.x (``scripts/check-genai3``) runs it too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from google import genai
from google.genai import types

from examples import gemini_loop
from tests.network_guard import integration_enabled
from tests.providers import gemini_wire
from tests.providers.standin import Reply, StandIn


@pytest.fixture
def gemini_server() -> Iterator[StandIn]:
    with StandIn(gemini_wire.respond, gemini_wire.authorize) as server:
        yield server


async def test_the_gemini_loop_serves_search_facts_offline(gemini_server: StandIn) -> None:
    call = gemini_wire.generate_body(None)
    call["candidates"][0]["content"] = {
        "role": "model",
        "parts": [{"functionCall": {"name": "search_facts", "args": {"queries": ["email"]}}}],
    }
    gemini_server.queue(
        Reply(200, call), Reply(200, gemini_wire.generate_body("It is alice@example.com."))
    )
    options = types.HttpOptions(base_url=gemini_server.url)
    client = genai.Client(api_key="test-key", http_options=options)
    assert await gemini_loop.main(client) == "It is alice@example.com."
    second = gemini_server.requests[1].body
    response = second["contents"][-1]["parts"][0]["functionResponse"]
    assert "Alice's email is alice@example.com" in response["response"]["output"]


@pytest.mark.integration
@pytest.mark.skipif(
    not (
        integration_enabled()
        and (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY"))
    ),
    reason="needs GEMINI_API_KEY (or GOOGLE_API_KEY) and EDEN_MEMORY_INTEGRATION=1",
)
async def test_the_gemini_loop_with_the_real_api() -> None:
    assert "alice@example.com" in await gemini_loop.main()
