"""The network guard: tests reach local stand-ins and nothing else."""

from __future__ import annotations

import socket

import pytest

from eden_memory.adapters.llms.gemini import GeminiLLM
from eden_memory.adapters.llms.openai import OpenAILLM
from tests.network_guard import NetworkAccessBlocked, integration_enabled
from tests.providers.schemas import Facts, request
from tests.providers.standin import StandIn

pytestmark = pytest.mark.skipif(
    integration_enabled(), reason="the guard is lifted in integration runs"
)


def test_a_connection_to_a_public_address_is_refused() -> None:
    with pytest.raises(NetworkAccessBlocked, match=r"203\.0\.113\.7:443"):
        socket.create_connection(("203.0.113.7", 443), timeout=1)


def test_a_raw_socket_connect_is_refused() -> None:
    with socket.socket() as raw, pytest.raises(NetworkAccessBlocked):
        raw.connect(("192.0.2.1", 80))


def test_a_provider_name_is_refused_before_any_dns_lookup() -> None:
    with pytest.raises(NetworkAccessBlocked, match=r"api\.openai\.com"):
        socket.getaddrinfo("api.openai.com", 443)


def test_loopback_still_works(openai_server: StandIn) -> None:
    host, port = openai_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=1):
        pass


async def test_an_adapter_left_on_the_real_openai_endpoint_cannot_reach_it() -> None:
    llm = OpenAILLM(api_key="sk-test", max_retries=0)
    try:
        with pytest.raises(NetworkAccessBlocked, match=r"api\.openai\.com"):
            await llm.generate(request("gpt-4.1-mini"), Facts)
    finally:
        await llm.aclose()


async def test_an_adapter_left_on_the_real_gemini_endpoint_cannot_reach_it() -> None:
    llm = GeminiLLM(api_key="test-key", max_retries=0)
    try:
        with pytest.raises(NetworkAccessBlocked, match=r"generativelanguage\.googleapis\.com"):
            await llm.generate(request("gemini-3-flash-preview"), Facts)
    finally:
        await llm.aclose()
