"""The server command line and the settings printed for it."""

from __future__ import annotations

from pathlib import Path

from eden_memory.config import EdenMemoryConfig
from eden_memory.local_llm import pins
from eden_memory.local_llm.server import ServerOptions, command, environment


def test_the_server_listens_on_loopback_with_every_core_and_a_long_context() -> None:
    options = ServerOptions(port=8099, context_tokens=8192, threads=2)

    line = command(Path("/venv/bin/python"), Path("/m.gguf"), options)

    assert line[:3] == ["/venv/bin/python", "-m", "llama_cpp.server"]
    pairs = dict(zip(line[3::2], line[4::2], strict=True))
    assert pairs["--host"] == "127.0.0.1"
    assert (pairs["--port"], pairs["--n_ctx"], pairs["--n_threads"]) == ("8099", "8192", "2")
    assert pairs["--model_alias"] == pins.MODEL_NAME


def test_the_printed_settings_configure_eden_memory_for_this_server() -> None:
    config = EdenMemoryConfig.model_validate(
        {
            name.removeprefix("EDEN_MEMORY_").lower(): value
            for name, value in environment(ServerOptions(port=8099)).items()
            if name.startswith("EDEN_MEMORY_") and "__" not in name
        }
    )

    assert config.llm_provider == "openai"
    assert config.openai_base_url == "http://127.0.0.1:8099/v1"
    assert (config.openai_api, config.openai_schema_mode) == ("chat", "json_object")
    assert config.llm_is_local()
    assert config.llm_timeout("openai") == 600.0
    assert config.llm_concurrency() == 1
