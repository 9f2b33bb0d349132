"""Every example runs as a user runs it: ``python examples/<name>.py`` from the checkout.

Each runs in its own process with the package installed as ``pip install -e .`` installs it
(``tests.installed``: ``examples`` itself is not importable), no API key in the environment,
and the network closed: offline is the default. ``--real`` without its key, and a missing
extra, end in one line saying what to do.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.installed import ROOT, user_env, user_site
from tests.network_guard import integration_enabled
from tests.providers import openai_wire
from tests.providers.standin import Reply, StandIn

EMAIL = "- [user] Alice's email is alice@example.com"
# What each example prints when it ran through (every file of examples/ is listed).
PRINTS = {
    "background_host": ["formation started = True", "- [user] Alice lives in Lyon"],
    "gemini_loop": [f'From memory: Facts found for "email", best first:\n{EMAIL}'],
    "google_adk_agent": [f'From memory: Facts found for "email", best first:\n{EMAIL}'],
    "langgraph_agent": [EMAIL, "messages recorded: 2"],
    "mcp_session": [EMAIL, "search_facts", "a call for bob is refused: True"],
    "openai_agents_agent": [
        f'From memory: Facts found for "email", best first:\n{EMAIL}',
        "messages recorded: 2",  # recorded by the session, the memory's search left out
    ],
    "openai_loop": [f'From memory: Facts found for "email", best first:\n{EMAIL}'],
    "pydantic_ai_agent": [EMAIL, "messages recorded: 2"],
}
# Examples whose --real path needs a key, and that key.
KEYS = {
    "gemini_loop": "GEMINI_API_KEY",
    "google_adk_agent": "GOOGLE_API_KEY",
    "openai_agents_agent": "OPENAI_API_KEY",
    "openai_loop": "OPENAI_API_KEY",
    "pydantic_ai_agent": "OPENAI_API_KEY",
}
# (example, a package its extra installs, the extra)
EXTRAS = [
    ("pydantic_ai_agent", "pydantic_ai", "pydantic-ai"),
    ("openai_agents_agent", "agents", "openai-agents"),
    ("langgraph_agent", "langchain", "langgraph"),
    ("google_adk_agent", "google.adk", "adk"),
    ("mcp_session", "mcp", "mcp"),
    ("openai_loop", "openai", "openai"),
    ("gemini_loop", "google.genai", "gemini"),
]


def run_example(
    tmp_path: Path, name: str, *args: str, without: tuple[str, ...] = (), **env: str
) -> subprocess.CompletedProcess[str]:
    site = user_site(tmp_path / "site", without, offline=not env.get("EDEN_MEMORY_INTEGRATION"))
    return subprocess.run(
        [sys.executable, f"examples/{name}.py", *args],
        cwd=ROOT,
        env=user_env(site, **env),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_every_example_is_run_here() -> None:
    files = {p.stem for p in (ROOT / "examples").glob("*.py")} - {"__init__"}
    assert files == set(PRINTS)


@pytest.mark.parametrize("name", sorted(PRINTS))
def test_the_example_runs_offline_as_a_script(tmp_path: Path, name: str) -> None:
    done = run_example(tmp_path, name)
    assert done.returncode == 0, done.stderr
    for text in PRINTS[name]:
        assert text in done.stdout, done.stdout
    assert "went online" not in done.stderr


@pytest.mark.parametrize("name", sorted(KEYS))
def test_real_without_its_key_says_so_in_one_line(tmp_path: Path, name: str) -> None:
    done = run_example(tmp_path, name, "--real")
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("error: --real needs ")
    assert KEYS[name] in line


def test_real_langgraph_names_the_package_its_model_needs(tmp_path: Path) -> None:
    done = run_example(
        tmp_path, "langgraph_agent", "--real", without=("langchain_openai",), OPENAI_API_KEY="k"
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "error: --real needs the langchain_openai package: pip install langchain-openai"
    ]


@pytest.mark.parametrize(("name", "missing", "extra"), EXTRAS, ids=[e[0] for e in EXTRAS])
def test_without_its_extra_an_example_names_it_in_one_line(
    tmp_path: Path, name: str, missing: str, extra: str
) -> None:
    done = run_example(tmp_path, name, without=(missing,))
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("error: ")
    assert f'pip install -e ".[{extra}]"' in line


def _tool_call_body(arguments: dict[str, Any]) -> dict[str, Any]:
    body = openai_wire.chat_body(None, finish_reason="tool_calls")
    call = {"name": "search_facts", "arguments": json.dumps(arguments)}
    body["choices"][0]["message"]["tool_calls"] = [
        {"id": "call_1", "type": "function", "function": call}
    ]
    return body


def test_the_openai_loop_real_path_against_a_local_stand_in(tmp_path: Path) -> None:
    """``--real`` as a user with an OpenAI-compatible server runs it: OPENAI_BASE_URL."""
    with StandIn(openai_wire.respond, openai_wire.authorize) as server:
        server.queue(
            Reply(200, _tool_call_body({"query": ["email"]})),
            Reply(200, openai_wire.chat_body("Your email is alice@example.com.")),
        )
        done = run_example(
            tmp_path,
            "openai_loop",
            "--real",
            OPENAI_API_KEY="sk-test",
            OPENAI_BASE_URL=server.url + "/v1",
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Your email is alice@example.com."
    first, second = (r.body for r in server.requests)
    assert first["tools"][0]["function"]["parameters"]["required"] == ["query"]
    assert "Alice wants short answers" in first["messages"][0]["content"]  # the context
    assert EMAIL in second["messages"][-1]["content"]  # the tool's answer went back


@pytest.mark.integration
@pytest.mark.skipif(
    not (integration_enabled() and os.environ.get("OPENAI_API_KEY")),
    reason="needs OPENAI_API_KEY and EDEN_MEMORY_INTEGRATION=1",
)
@pytest.mark.parametrize("name", ["openai_loop", "openai_agents_agent", "pydantic_ai_agent"])
def test_the_openai_examples_with_the_real_api(tmp_path: Path, name: str) -> None:
    key = os.environ["OPENAI_API_KEY"]
    done = run_example(tmp_path, name, "--real", OPENAI_API_KEY=key, EDEN_MEMORY_INTEGRATION="1")
    assert done.returncode == 0, done.stderr
    assert "alice@example.com" in done.stdout
