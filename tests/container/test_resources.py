"""What the container opens, it closes: store files, the MongoDB client, provider clients."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from pymongo.errors import InvalidOperation

from eden_memory.adapters.stores.mongo import MongoFacts
from eden_memory.container import Container, running
from eden_memory.container.running import resolved
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import ProviderAuthError
from eden_memory.factory import open_stores
from eden_memory.ports.llm import LLMRequest
from tests.container.conftest import Settings
from tests.unit.adapters.mongo import wire_server


class Answer(BaseModel):
    text: str


REQUEST = LLMRequest(model="m", system="s", prompt="p", purpose="test")


def open_files(path: Path) -> int:
    """How many of this process's file descriptors point at ``path`` (or its WAL files)."""
    names = {str(path), f"{path}-wal", f"{path}-shm"}
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir() if _target(fd) in names)


def _target(fd: Path) -> str:
    try:
        return os.readlink(fd)
    except OSError:
        return ""


@pytest.fixture(scope="module")
def mongo_uri() -> Iterator[str]:
    if not wire_server.available():
        pytest.skip(f"{wire_server.SERVER} is not installed (dev dependency)")
    with wire_server.wire_server() as uri:
        yield uri


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
async def test_the_embedded_store_file_is_closed(settings: Settings, tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with running(Container(config=settings(store="embedded", store_path=path))) as memory:
        await memory.admin.stats("agent")
        assert open_files(path) > 0
    assert open_files(path) == 0


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
async def test_a_failed_build_closes_what_it_had_opened(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    path = tmp_path / "memory.db"
    config = settings(store="embedded", store_path=path, embedder="openai")
    with pytest.raises(ProviderAuthError, match="OPENAI_API_KEY"):
        async with running(Container(config=config)):
            pass
    assert open_files(path) == 0


async def test_the_mongo_client_is_closed(settings: Settings, mongo_uri: str) -> None:
    container = Container(config=settings(store="mongo", mongodb_uri=mongo_uri))
    async with running(container) as memory:
        await memory.admin.stats("agent")  # a real round trip on the container's client
        client: Any = await resolved(container.mongo_client())
        await client.admin.command("ping")
    with pytest.raises(InvalidOperation, match="after close"):
        await client.admin.command("ping")


@pytest.mark.parametrize("provider", ["openai", "gemini"])
async def test_provider_clients_are_closed(settings: Settings, provider: str) -> None:
    container = Container(config=settings(llm_provider=provider, embedder=provider))
    async with running(container):
        llm: Any = await resolved(getattr(container, f"{provider}_llm")())
        embedder: Any = await resolved(getattr(container, f"{provider}_embedder")())
    with pytest.raises(RuntimeError, match="client has been closed"):
        await llm.generate(REQUEST, Answer)
    with pytest.raises(RuntimeError, match="client has been closed"):
        await embedder.embed(["hello"], TextRole.PASSAGE)


async def test_a_container_runs_again_after_shutdown(settings: Settings, tmp_path: Path) -> None:
    container = Container(config=settings(store="embedded", llm_provider="openai"))
    async with running(container) as first:
        pass
    async with running(container) as second:
        assert second is not first
        assert second.admin.stores.facts is not first.admin.stores.facts
        await second.admin.stats("agent")


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
async def test_open_store_closes_the_store_it_opened(settings: Settings, tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    async with open_stores(settings(store="embedded", store_path=path)) as stores:
        assert await stores.facts.embedding_space() is None  # a fresh store, open
        assert open_files(path) > 0
    assert open_files(path) == 0


async def test_open_store_closes_the_mongo_client(settings: Settings, mongo_uri: str) -> None:
    async with open_stores(settings(store="mongo", mongodb_uri=mongo_uri)) as stores:
        store = stores.facts
        assert isinstance(store, MongoFacts)
        assert await store.embedding_space() is None
        client: Any = store.ctx.driver.database.client
        await client.admin.command("ping")
    with pytest.raises(InvalidOperation, match="after close"):
        await client.admin.command("ping")
