"""Running a container: resolve the service, and close everything it opened afterwards."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TypeVar

from dependency_injector import providers

from eden_memory.application.service import MemoryService
from eden_memory.container.core import Container

V = TypeVar("V")


async def resolved(value: V) -> V:
    """A provider's value: providers that depend on an async resource return awaitables."""
    if inspect.isawaitable(value):
        return await value  # type: ignore[no-any-return]
    return value


async def shutdown(container: Container) -> None:
    """Close every resource opened so far (only the selected ones ever were) and forget
    the singletons built on them, so the container can run again.

    The usage meter is kept: a host reads it after the run, and it counts across runs.
    """
    await resolved(container.shutdown_resources())
    for singleton in container.traverse(types=[providers.BaseSingleton]):
        if singleton is not container.meter:
            singleton.reset()


@asynccontextmanager
async def running(container: Container) -> AsyncIterator[MemoryService]:
    """``async with running(container) as memory:`` — the service, then a clean shutdown.

    The service is closed (its background work finished) before the resources it uses:
    ``shutdown_resources`` does not order by dependency.
    """
    try:
        service: MemoryService = await resolved(container.service())
        try:
            yield service
        finally:
            await service.aclose()
    finally:
        await shutdown(container)
