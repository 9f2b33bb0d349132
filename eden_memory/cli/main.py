"""Entry point: one Typer app, errors as one clear line (never a traceback)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from eden_memory.cli import facts, memory, reflections
from eden_memory.cli.runtime import State
from eden_memory.domain.errors import EdenMemoryError

app = typer.Typer(
    name="eden-memory",
    help="Long-term memory for LLM agents: run the demo, inspect and maintain a store.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(facts.app, name="facts")
app.add_typer(reflections.app, name="reflections")
memory.register(app)

err = Console(stderr=True)


@app.callback()
def options(
    ctx: typer.Context,
    store: Annotated[
        Path | None,
        typer.Option(
            help="Embedded store file (default: $EDEN_MEMORY_STORE_PATH or .eden-memory/memory.db)."
        ),
    ] = None,
) -> None:
    ctx.obj = State(store_path=store)


def main() -> None:
    """Typer handles usage errors, --help and exits; our own errors become one clear line."""
    try:
        app()
    except EdenMemoryError as error:
        err.print(f"[red]error:[/] {error}", highlight=False)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
