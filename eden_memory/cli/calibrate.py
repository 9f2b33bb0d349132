"""``eden-memory calibrate``: the similarity floors of the configured embedder.

Without a file, it prints the floors search and dedup use (recorded for known models,
measured on the built-in pairs otherwise). With ``--pairs FILE`` it measures them on the
user's own pairs: a JSON object ``{"questions": [[question, fact], ...], "same_attribute":
[[fact, fact], ...]}``; put the printed numbers in the settings to use them.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from eden_memory.application.search.calibration import Calibrations, measure
from eden_memory.cli.output import say
from eden_memory.cli.runtime import State
from eden_memory.domain.calibration import Calibration
from eden_memory.factory import open_memory

PairsFile = Annotated[
    Path | None, typer.Option("--pairs", help="JSON file of your own calibration pairs.")
]


def calibrate_command(ctx: typer.Context, pairs: PairsFile = None) -> None:
    """Print the similarity floors of the configured embedder, or measure them on your pairs."""
    # Only the embedder is used: no store is opened (nor created where none is).
    config = ctx.ensure_object(State).config().model_copy(update={"store": "memory"})

    async def work() -> None:
        async with open_memory(config) as memory:
            embedder = memory.admin.embedder
        if pairs is None:
            floors = await Calibrations(embedder).current()
        else:
            questions, same = _read(pairs)
            floors = await measure(embedder, questions, same, f"measured on {pairs}")
        _show(floors)

    asyncio.run(work())


def _read(path: Path) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8"))
        questions = [(str(q), str(f)) for q, f in raw["questions"]]
        same = [(str(a), str(b)) for a, b in raw["same_attribute"]]
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as error:
        raise typer.BadParameter(
            f"{path}: expected {{'questions': [[q, fact], ...], "
            f"'same_attribute': [[fact, fact], ...]}} ({error})"
        ) from error
    if len(questions) < 2 or not same:
        raise typer.BadParameter(f"{path}: give at least 2 questions and 1 same-attribute pair")
    return questions, same


def _show(floors: Calibration) -> None:
    say(f"model {floors.model} ({floors.source})")
    say(f"  search floor {floors.search_floor}  EDEN_MEMORY_MEMORY__SEARCH__SEMANTIC_THRESHOLD")
    say(f"  dedup floor  {floors.dedup_floor}  EDEN_MEMORY_MEMORY__DEDUP__MIN_SIMILARITY")
