"""llama-cpp-python in a virtual environment of its own, built from source once.

The server runs in its own process and its own environment: its dependencies (FastAPI,
uvicorn, numpy...) never meet the host's, and the 6-7 minute build happens once (pip's
wheel cache makes a rebuild fast). ``--python`` may name an interpreter that already has
it, in which case nothing is installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from eden_memory.local_llm import pins
from eden_memory.local_llm.model import Say, pip_of, run_checked

LLAMA_VERSION = pins.LLAMA_CPP_PYTHON.rsplit("==", 1)[1]


def ensure_runtime(home: Path, python: str | None, say: Say) -> Path:
    """An interpreter with ``llama_cpp.server`` at the pinned version, installed if needed."""
    if python is not None:
        interpreter = Path(python)
    else:
        venv = home / "venv"
        interpreter = venv / "bin" / "python"
        if not interpreter.exists():
            say(f"runtime: creating {venv}")
            run_checked([sys.executable, "-m", "venv", str(venv)], "creating the server's venv")
    if installed_version(interpreter) == LLAMA_VERSION:
        say(f"runtime: llama-cpp-python {LLAMA_VERSION} in {interpreter}")
        return interpreter
    say(f"runtime: building {pins.LLAMA_CPP_PYTHON} from source (6-7 min on 2 cores, once)")
    env = {**os.environ, "CMAKE_ARGS": pins.LLAMA_CMAKE_ARGS}
    run_checked(
        [*pip_of(interpreter), "install", pins.LLAMA_CPP_PYTHON], "building llama-cpp-python", env
    )
    return interpreter


def installed_version(interpreter: Path) -> str | None:
    """The llama-cpp-python version ``interpreter`` imports with its server, or None."""
    probe = "import llama_cpp, llama_cpp.server.app; print(llama_cpp.__version__)"
    try:
        done = subprocess.run(
            [str(interpreter), "-c", probe], capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None
