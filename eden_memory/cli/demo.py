"""``eden-memory demo``: the demo's story through the whole pipeline, into the command
line's own store, so that every other command reads what it wrote (``eden_memory.demo``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from eden_memory.cli.runtime import State


def demo(
    ctx: typer.Context,
    store: Annotated[
        Path | None,
        typer.Option(
            help="Where the demo keeps its memory (as the global --store; the default: "
            "the store every other command reads)."
        ),
    ] = None,
    fresh: Annotated[
        bool,
        typer.Option(help="Delete the store first (refused if other agents hold memory there)."),
    ] = False,
    llm: Annotated[
        str,
        typer.Option(
            help="scripted (offline answers shipped with the demo), or openai / gemini: the "
            "configured provider (EDEN_MEMORY_*; `eden-memory local-llm` serves one here)."
        ),
    ] = "scripted",
) -> None:
    """Run a multi-session conversation through the whole pipeline into a store on disk."""
    from eden_memory.demo.run import run_demo

    if llm not in ("scripted", "openai", "gemini"):
        raise typer.BadParameter("--llm must be scripted, openai or gemini")
    state = ctx.ensure_object(State)
    if store is not None and state.store_path not in (None, store):
        raise typer.BadParameter(f"two stores given: --store {state.store_path} and {store}")
    path = store or state.config().store_path
    asyncio.run(run_demo(path, Console(emoji=False, highlight=False), llm, fresh=fresh))
