"""A console over the sample memory, and a browser-like client that holds its cookie."""

from __future__ import annotations

import asyncio
import re

from starlette.applications import Starlette
from starlette.testclient import TestClient

from eden_memory.adapters.console.app import build_console
from eden_memory.adapters.console.guard import Guard
from eden_memory.adapters.console.memory import ConsoleMemory
from eden_memory.demo.console_sample import AGENT, seed_sample
from tests.application.story import World, make_world

TOKEN = "test-token-0123456789"
ORIGIN = "http://testserver"


def sample_world() -> World:
    world = make_world()
    asyncio.run(seed_sample(world.memory))
    return world


def console(
    world: World, *, read_only: bool = False, agents: tuple[str, ...] = (AGENT,)
) -> Starlette:
    memory = ConsoleMemory(world.memory, agents)
    return build_console(memory, Guard(TOKEN, read_only, frozenset({"testserver"})))


def signed_in(app: Starlette) -> TestClient:
    """A client that opened the printed URL once: it holds the session cookie now."""
    client = TestClient(app, follow_redirects=False)
    answer = client.get(f"/?token={TOKEN}")
    assert answer.status_code == 303
    return client


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, "the page has no form with a CSRF token"
    return found.group(1)


def snapshot(world: World) -> list[str]:
    """Everything agent nova holds, as its export lines (the header's time left out)."""

    async def lines() -> list[str]:
        return [line async for line in world.memory.admin.export(AGENT)][1:]

    return asyncio.run(lines())
