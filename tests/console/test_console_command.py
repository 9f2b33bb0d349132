"""``eden-memory console`` on the command line: what it needs, and where it may listen."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from eden_memory.cli.console import _is_loopback
from eden_memory.cli.main import app


def test_the_console_needs_an_agent_to_open() -> None:
    result = CliRunner().invoke(app, ["console"])
    assert result.exit_code != 0
    assert "--agent" in result.output


def test_its_help_names_read_only_and_the_token_variable() -> None:
    result = CliRunner().invoke(app, ["console", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--read-only" in result.output
    assert "EDEN_MEMORY_CONSOLE_TOKEN" in result.output


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("192.168.1.4", False),
        ("example.org", False),
    ],
)
def test_only_this_machines_addresses_count_as_loopback(host: str, loopback: bool) -> None:
    assert _is_loopback(host) is loopback
