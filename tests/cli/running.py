"""The command line in a real process, as a person runs it, and an empty store to run it on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from eden_memory.adapters.stores.sqlite import open_sqlite


def run_cli(
    cwd: Path, args: tuple[str, ...], store: Path | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m eden_memory ARGS`` in ``cwd`` with the keyword embedder; ``store``: the
    ``EDEN_MEMORY_STORE_PATH`` (None: no store configured but what ``args`` say)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDEN_MEMORY_")}
    env |= {"EDEN_MEMORY_EMBEDDER": "keyword", "COLUMNS": "200"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])  # this checkout's code
    if store is not None:
        env["EDEN_MEMORY_STORE_PATH"] = str(store)
    return subprocess.run(
        [sys.executable, "-m", "eden_memory", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


async def empty_store(path: Path) -> None:
    """An embedded store with nothing in it (as a host's first start leaves it)."""
    async with await open_sqlite(path):
        pass
