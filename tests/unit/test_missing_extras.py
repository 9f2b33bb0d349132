"""Importing a part of eden-memory whose extra is not installed names the extra.

Each case runs in a real process where the package cannot be imported (``tests.installed``),
as it cannot when the extra was never installed: the error is ``MissingExtraError`` with the
install command, never a bare ``ModuleNotFoundError``.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from eden_memory.cli.extras import EXTRA_OF
from tests.installed import ROOT, user_env, user_site

# (what a host imports, the package made unimportable, the extra the error must name)
CASES = [
    ("eden_memory.adapters.integrations.pydantic_ai", "pydantic_ai", "pydantic-ai"),
    ("eden_memory.adapters.integrations.openai_agents", "agents", "openai-agents"),
    ("eden_memory.adapters.integrations.langgraph", "langchain_core", "langgraph"),
    ("eden_memory.adapters.integrations.langchain_agent", "langchain", "langgraph"),
    ("eden_memory.adapters.integrations.google_adk", "google.adk", "adk"),
    ("eden_memory.adapters.integrations.google_adk_agent", "google.adk", "adk"),
    ("eden_memory.adapters.mcp.server", "mcp", "mcp"),
    ("eden_memory.adapters.stores.mongo", "pymongo", "mongo"),
    ("eden_memory.adapters.stores.sqlite", "numpy", "embedded"),
    ("eden_memory.adapters.migration.mongo_source", "bson", "mongo"),
    ("eden_memory.adapters.console.app", "starlette", "console"),
    ("eden_memory.container", "dependency_injector", "container"),
    ("eden_memory.adapters.telemetry.otel", "opentelemetry", "otel"),
]


@pytest.mark.parametrize(("module", "missing", "extra"), CASES, ids=[c[0] for c in CASES])
def test_an_import_without_its_extra_names_the_extra(
    tmp_path: Path, module: str, missing: str, extra: str
) -> None:
    site = user_site(tmp_path / "site", [missing])
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=tmp_path,
        env=user_env(site),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("eden_memory.domain.errors.MissingExtraError: ")
    assert f'eden-memory[{extra}] extra: pip install -e ".[{extra}]"' in last


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")


@pytest.mark.parametrize(("module", "extra"), sorted(EXTRA_OF.items()))
def test_the_extra_named_for_a_package_installs_it(module: str, extra: str) -> None:
    """The CLI's table of extras is pyproject's: the extra exists and brings the package."""
    installs = {_name(r) for r in _extras()[extra]}
    for requirement in list(installs):  # and what those require (langchain -> langchain-core)
        try:
            installs |= {_name(r) for r in importlib.metadata.requires(requirement) or []}
        except importlib.metadata.PackageNotFoundError:
            continue
    top = module.split(".")[0]
    providers = {_name(d) for d in importlib.metadata.packages_distributions().get(top, [])}
    assert providers & installs, f"{module} comes from {providers}, not from [{extra}]"
