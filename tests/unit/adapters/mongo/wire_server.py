"""A real MongoDB wire-protocol server for tests: SecantusDB, started as a subprocess.

SecantusDB (a test dependency, GPL, pinned ``SecantusDB==0.7.0b3``) bundles
``secantusd-py``, a MongoDB-compatible server on WiredTiger that ``AsyncMongoClient``
talks to like any mongod. Started with ``--port 0`` it picks a free port and logs
``secantus listening on 127.0.0.1:<port>``; the log goes to a file (a pipe could fill up
and stall the server), which is read until that line appears.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SERVER = "secantusd-py"
LISTENING = "listening on "


def _port_from(log: Path, process: subprocess.Popen[bytes], seconds: float) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            if LISTENING in line:
                return int(line.rsplit(":", 1)[1])
        if process.poll() is not None:
            raise RuntimeError(f"{SERVER} exited early:\n{log.read_text(errors='replace')}")
        time.sleep(0.05)
    raise RuntimeError(f"{SERVER} did not start within {seconds} seconds")


def executable() -> str | None:
    """The server program: beside this interpreter (an unactivated venv), on PATH, or where
    the installed package put it (a venv that borrows another's site-packages)."""
    beside = Path(sys.executable).parent / SERVER
    return str(beside) if beside.exists() else shutil.which(SERVER) or _installed()


def _installed() -> str | None:
    try:
        files = importlib.metadata.distribution("SecantusDB").files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    found = [f.locate() for f in files if f.name == SERVER]
    return next((str(Path(p).resolve()) for p in found if Path(p).exists()), None)


def available() -> bool:
    return executable() is not None


@contextmanager
def wire_server(start_seconds: float = 30.0) -> Iterator[str]:
    """Run a fresh in-memory server; yields its connection URI, stops it afterwards."""
    program = executable()
    if program is None:
        raise RuntimeError(f"{SERVER} is not installed (test dependency SecantusDB==0.7.0b3)")
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        args = ["--host", "127.0.0.1", "--port", "0", "--storage-path", ":memory:", "--standalone"]
        with log.open("wb") as sink:
            process = subprocess.Popen([program, *args], stderr=sink)
        try:
            port = _port_from(log, process, start_seconds)
            yield f"mongodb://127.0.0.1:{port}/?serverSelectionTimeoutMS=5000"
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
