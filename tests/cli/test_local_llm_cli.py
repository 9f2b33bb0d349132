"""``eden-memory local-llm``'s options that need no model: ``--print-env`` and the help."""

from __future__ import annotations

import shlex

from typer.testing import CliRunner

from eden_memory.cli.main import app
from eden_memory.config import EdenMemoryConfig


def test_print_env_prints_the_settings_as_export_lines_and_starts_nothing() -> None:
    done = CliRunner().invoke(app, ["local-llm", "--print-env", "--port", "8097"])
    assert done.exit_code == 0, done.output
    lines = [line for line in done.stdout.splitlines() if line.startswith("export ")]
    settings = dict(shlex.split(line)[1].split("=", 1) for line in lines)
    assert settings["EDEN_MEMORY_OPENAI_BASE_URL"] == "http://127.0.0.1:8097/v1"
    config = EdenMemoryConfig.model_validate(
        {
            name.removeprefix("EDEN_MEMORY_").lower(): value
            for name, value in settings.items()
            if name.startswith("EDEN_MEMORY_") and "__" not in name
        }
    )
    assert config.llm_provider == "openai"
    assert "nothing serves the model on port 8097" in done.stderr


def test_the_home_option_names_its_real_default() -> None:
    shown = CliRunner().invoke(app, ["local-llm", "--help"], env={"COLUMNS": "300"})
    assert "~/.cache/eden-memory/local-llm" in shown.stdout
    assert "$EDEN_MEMORY_LOCAL_LLM_HOME" in shown.stdout
