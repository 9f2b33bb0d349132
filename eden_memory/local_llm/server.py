"""Start llama-cpp-python's OpenAI-compatible server on this machine, and say how to use it.

The server listens on 127.0.0.1 only. It is started with every core for generation (its
own default is half of them) and a context of 8,192 tokens (its default, 2,048, is shorter
than a formation prompt with a long conversation). Readiness is its ``/v1/models`` answering.
"""

from __future__ import annotations

import os
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
    """The server process, once it answers; an early exit or a slow start is an error."""
    process = subprocess.Popen(command(interpreter, model, options))
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ConfigurationError(
                f"the model server exited with code {process.returncode} before answering "
                f"(is port {options.port} free? --port picks another)"
            )
        if answers(options.base_url):
            return process
        time.sleep(0.5)
    stop(process)
    raise ConfigurationError(f"the model server did not answer in {READY_TIMEOUT_SECONDS:g} s")


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


def answers(base_url: str) -> bool:
    """True when ``base_url``/models answers 200."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as reply:
            return bool(reply.status == 200)
    except (urllib.error.URLError, OSError):
        return False
