"""Start llama-cpp-python's OpenAI-compatible server on this machine, and say how to use it.

The server listens on 127.0.0.1 only. It is started with every core for generation (its
own default is half of them) and a context of 8,192 tokens (its default, 2,048, is shorter
than a formation prompt with a long conversation). Readiness is its ``/v1/models`` answering
with the model's alias while the process is alive; a port another program holds is refused
before anything starts, so that another server's answer is never taken for this one's.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from eden_memory.domain.errors import ConfigurationError
from eden_memory.local_llm import pins

READY_TIMEOUT_SECONDS = 180.0


@dataclass(frozen=True)
class ServerOptions:
    host: str = "127.0.0.1"
    port: int = 8080
    context_tokens: int = 8192
    threads: int = os.cpu_count() or 1

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"


def environment(options: ServerOptions) -> dict[str, str]:
    """The settings that point eden-memory at the server (the key is required, not checked)."""
    settings = {
        "EDEN_MEMORY_LLM_PROVIDER": "openai",
        "EDEN_MEMORY_OPENAI_BASE_URL": options.base_url,
        "OPENAI_API_KEY": "dummy",
        "EDEN_MEMORY_OPENAI_API": "chat",
        "EDEN_MEMORY_OPENAI_SCHEMA_MODE": "json_object",
    }
    for role in ("FAST", "REFLECTION_FREE", "REFLECTION_PREMIUM"):
        settings[f"EDEN_MEMORY_MEMORY__MODELS__{role}"] = pins.MODEL_NAME
    return settings


def command(interpreter: Path, model: Path, options: ServerOptions) -> list[str]:
    return [
        str(interpreter),
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        pins.MODEL_NAME,
        "--host",
        options.host,
        "--port",
        str(options.port),
        "--n_ctx",
        str(options.context_tokens),
        "--n_threads",
        str(options.threads),
    ]


def start(interpreter: Path, model: Path, options: ServerOptions) -> subprocess.Popen[bytes]:
    """The server process, once it answers; a port in use, an early exit or a slow start is
    an error, and whatever stops the wait (a signal included) stops the process too."""
    refuse_taken(options)
    process = subprocess.Popen(command(interpreter, model, options))
    try:
        _wait_ready(process, options)
    except BaseException:
        stop(process)
        raise
    return process


def _wait_ready(process: subprocess.Popen[bytes], options: ServerOptions) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ConfigurationError(
                f"the model server exited with code {process.returncode} before answering "
                f"(is port {options.port} free? --port picks another)"
            )
        if serves_model(options.base_url) and process.poll() is None:
            return
        time.sleep(0.5)
    raise ConfigurationError(f"the model server did not answer in {READY_TIMEOUT_SECONDS:g} s")


def refuse_taken(options: ServerOptions) -> None:
    """A clear error when something already listens on the port (another server, an earlier
    ``local-llm``): its answers would pass for the new server's."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((options.host, options.port))
        except OSError:
            raise ConfigurationError(
                f"port {options.port} on {options.host} is already in use (another server?): "
                "stop it, or pick another port with --port"
            ) from None


def stop(process: subprocess.Popen[bytes], grace_seconds: float = 15.0) -> None:
    """Ask the server to stop; kill it if it is still busy after ``grace_seconds``.

    uvicorn waits for the request in flight, which on a CPU can be minutes of generation.
    """
    process.terminate()
    try:
        process.wait(timeout=grace_seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def serves_model(base_url: str) -> bool:
    """True when ``base_url``/models answers 200 and lists this model's alias."""
    listed = _models(base_url)
    return listed is not None and pins.MODEL_NAME in listed


def _models(base_url: str) -> list[str] | None:
    """The model ids ``base_url``/models lists (empty when it is not a list), or None."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as reply:
            if reply.status != 200:
                return None
            body = json.loads(reply.read() or b"null")
    except (urllib.error.URLError, OSError, ValueError):
        return None
    data = body.get("data") if isinstance(body, dict) else None
    return [str(m.get("id")) for m in data if isinstance(m, dict)] if isinstance(data, list) else []
