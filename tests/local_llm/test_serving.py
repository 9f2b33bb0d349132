"""The model server lives exactly as long as ``eden-memory local-llm``, and only a server it
started is taken for it: run against a stand-in server (``fake_llama_server``), no model."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from eden_memory.domain.errors import ConfigurationError
from eden_memory.local_llm.server import ServerOptions, serves_model, start, stop

ROOT = Path(__file__).resolve().parents[2]
FAKE = Path(__file__).with_name("fake_llama_server.py")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def interpreter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An "interpreter" whose ``-m llama_cpp.server`` is the stand-in."""
    script = tmp_path / "python"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("FAKE_SERVER_PID", str(tmp_path / "server.pid"))
    return script


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _pid(path: Path, seconds: float = 30) -> int:
    deadline = time.monotonic() + seconds
    while not path.exists() or not path.read_text(encoding="utf-8"):
        assert time.monotonic() < deadline, "the stand-in server never started"
        time.sleep(0.1)
    return int(path.read_text(encoding="utf-8"))


@pytest.fixture
def occupied() -> Iterator[int]:
    """A port another program already listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def test_a_port_another_program_holds_is_refused_before_a_server_starts(
    interpreter: Path, occupied: int, tmp_path: Path
) -> None:
    with pytest.raises(ConfigurationError, match=f"port {occupied} .* already in use"):
        start(interpreter, tmp_path / "m.gguf", ServerOptions(port=occupied))
    assert not (tmp_path / "server.pid").exists()  # nothing was started


def test_the_server_it_started_is_ready_once_it_lists_the_model(
    interpreter: Path, tmp_path: Path
) -> None:
    options = ServerOptions(port=_free_port())
    process = start(interpreter, tmp_path / "m.gguf", options)
    try:
        assert process.poll() is None
        assert serves_model(options.base_url)
    finally:
        stop(process)
    assert not serves_model(options.base_url)


def _serving(port: int, tmp_path: Path, interpreter: Path) -> subprocess.Popen[str]:
    """``serve`` as the command runs it, in a process of its own."""
    program = (
        "import sys; from pathlib import Path\n"
        "from eden_memory.local_llm.server import ServerOptions\n"
        "from eden_memory.local_llm.serving import serve\n"
        f"sys.exit(serve(Path({str(interpreter)!r}), Path('m.gguf'), "
        f"ServerOptions(port={port}), lambda: print('serving', flush=True)))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", program], env=env, cwd=tmp_path, stdout=subprocess.PIPE, text=True
    )


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stopping_signal_stops_the_model_server_too(
    signum: signal.Signals, interpreter: Path, tmp_path: Path
) -> None:
    command = _serving(_free_port(), tmp_path, interpreter)
    try:
        assert command.stdout is not None
        assert command.stdout.readline().strip() == "serving"
        server = _pid(tmp_path / "server.pid")
        command.send_signal(signum)
        assert command.wait(timeout=30) == 128 + signum
    finally:
        command.kill()
    assert not _alive(server)


def test_a_signal_while_the_server_starts_stops_it_too(interpreter: Path, tmp_path: Path) -> None:
    slow = tmp_path / "slow-python"  # says it was started, then starts the server late
    spawned = tmp_path / "spawned"
    slow.write_text(
        f'#!/bin/sh\necho $$ > "{spawned}"\nsleep 5\nexec "{interpreter}" "$@"\n',
        encoding="utf-8",
    )
    slow.chmod(0o755)
    command = _serving(_free_port(), tmp_path, slow)
    _pid(spawned)  # inside start(), waiting for the server
    command.send_signal(signal.SIGTERM)
    assert command.wait(timeout=30) == 128 + signal.SIGTERM
    time.sleep(5)
    assert not (tmp_path / "server.pid").exists()  # the shell was stopped before its exec
