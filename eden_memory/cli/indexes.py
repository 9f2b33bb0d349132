"""``eden-memory setup-indexes``: create the MongoDB store's indexes, or print them.

The vector index is built for the configured embedder's dimension, read from the settings
without building the embedder (no model is loaded, no provider is called).
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from eden_memory.cli.output import say
from eden_memory.cli.runtime import State
from eden_memory.cli.values import finite
from eden_memory.config import EdenMemoryConfig

if TYPE_CHECKING:
    from eden_memory.adapters.stores.mongo import IndexReport


def setup_indexes_command(
    ctx: typer.Context,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print every index definition as JSON; no server.")
    ] = False,
    timeout_seconds: Annotated[
        float,
        typer.Option(
            min=0,
            callback=finite,
            help="How long to wait for Atlas Search indexes to be READY.",
        ),
    ] = 600.0,
    wait: Annotated[bool, typer.Option(help="Wait until search indexes are READY.")] = True,
) -> None:
    """Create or update the MongoDB store's indexes (EDEN_MEMORY_MONGODB_URI), idempotently."""
    from eden_memory.adapters.stores.mongo import setup_indexes
    from eden_memory.container import embedding_dimension
    from eden_memory.container.stores import mongo_options

    config = ctx.ensure_object(State).config()
    dimension = embedding_dimension(config)
    if dry_run:
        report = asyncio.run(
            setup_indexes(None, dimension, options=mongo_options(config), dry_run=True)
        )
        sys.stdout.write(report.definitions_json() + "\n")
        return
    report = asyncio.run(_on_server(config, dimension, timeout_seconds, wait))
    for line in report.lines():
        say(line)
    if not report.ready:
        say("some search indexes are not READY yet; run the command again later")
        raise typer.Exit(1)


async def _on_server(
    config: EdenMemoryConfig, dimension: int, timeout_seconds: float, wait: bool
) -> IndexReport:
    """Run ``setup_indexes`` on the container's client, closed again afterwards."""
    from eden_memory.adapters.stores.mongo import setup_indexes
    from eden_memory.container import Container, shutdown
    from eden_memory.container.running import resolved
    from eden_memory.container.stores import mongo_options

    container = Container(config=config)
    try:
        client = await resolved(container.mongo_client())
        return await setup_indexes(
            client[config.mongodb_database],
            dimension,
            options=mongo_options(config),
            wait=wait,
            timeout_seconds=timeout_seconds,
        )
    finally:
        await shutdown(container)
