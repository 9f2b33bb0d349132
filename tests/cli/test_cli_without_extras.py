"""The command line without an extra it needs: one line naming the extra, never a traceback.

Every integration guide installs ``eden-memory`` without the ``cli`` extra; the command and
``python -m eden_memory`` must then say what to install. The packages are made unimportable
in a real process (``tests.installed``), as they are when the extra was never installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.installed import user_env, user_site

# The console script pip writes for ``eden-memory = "eden_memory.cli:main"``.
CONSOLE_SCRIPT = "import sys; from eden_memory.cli import main; sys.exit(main())"
INSTALL = (
    'in the eden-memory[{extra}] extra: pip install -e ".[{extra}]" in the eden-memory checkout'
)


def _run(
    tmp_path: Path, without: list[str], program: list[str]
) -> subprocess.CompletedProcess[str]:
    site = user_site(tmp_path / "site", without)
    return subprocess.run(
        [sys.executable, *program],
        cwd=tmp_path,
        env=user_env(site, EDEN_MEMORY_EMBEDDER="keyword"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("missing", ["typer", "rich", "dependency_injector"])
@pytest.mark.parametrize("how", ["console script", "python -m"])
def test_without_the_cli_extra_the_command_names_it(tmp_path: Path, missing: str, how: str) -> None:
    start = ["-c", CONSOLE_SCRIPT] if how == "console script" else ["-m", "eden_memory"]
    done = _run(tmp_path, [missing], [*start, "demo"])
    assert done.returncode == 1
    module = "dependency-injector" if missing == "dependency_injector" else missing
    assert done.stderr.splitlines() == [
        f"error: eden-memory's command line needs the '{module}' package, "
        + INSTALL.format(extra="cli")
    ]
    assert done.stdout == ""
    assert not (tmp_path / ".eden-memory").exists()  # nothing ran


def test_without_the_console_extra_the_console_names_it(tmp_path: Path) -> None:
    done = _run(tmp_path, ["starlette", "uvicorn"], ["-m", "eden_memory", "console", "-a", "nova"])
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "error: the console needs the 'uvicorn' package, " + INSTALL.format(extra="console")
    ]


def test_a_command_whose_package_is_missing_names_its_extra(tmp_path: Path) -> None:
    migrate = ["migrate-v1", "--source-uri", "mongodb://127.0.0.1:9", "--source-db", "eden"]
    done = _run(tmp_path, ["pymongo", "bson"], ["-m", "eden_memory", *migrate, "--dry-run"])
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "error: this command needs the 'pymongo' package, " + INSTALL.format(extra="mongo")
    ]


def test_a_missing_package_no_extra_installs_is_not_hidden(tmp_path: Path) -> None:
    done = _run(tmp_path, ["pydantic_settings"], ["-m", "eden_memory", "--help"])
    assert done.returncode == 1
    assert "ModuleNotFoundError: No module named 'pydantic_settings'" in done.stderr
