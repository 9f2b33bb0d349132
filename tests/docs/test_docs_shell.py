"""Every install line and ``eden-memory`` command of README.md and docs/*.md works as written.

``pip install`` lines install eden-memory from the checkout (it is not on a package index)
with extras that ``pyproject.toml`` defines, and a snippet that installs before running a
command installs what that command needs. Every ``eden-memory`` command names a command and
options that exist (and its ``--help`` works); the offline, cheap ones run for real.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from eden_memory.cli.main import app
from tests.cli.running import empty_store
from tests.docs.shell_lines import ROOT, is_eden_memory, is_pip_install, snippets
from tests.installed import user_env, user_site

_CHECKOUT = re.compile(r"^\.(\[(?P<extras>[a-z0-9,-]+)\])?$")
# Beside the command line itself (any of cli, console, dev), what each command needs.
CLI = {"cli", "console", "dev"}
NEEDS = {"console": {"console", "dev"}, "mcp": {"mcp", "dev"}, "migrate-v1": {"mongo", "dev"}}
# Offline and cheap: these run for real, in one folder, in page order.
RUNS = {("--version",), ("process-cold",), ("export",), ("import",), ("setup-indexes", "--dry-run")}


def _extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project["optional-dependencies"])


def _installs(command: tuple[str, ...]) -> set[str]:
    """The extras of eden-memory a ``pip install`` line installs."""
    extras: set[str] = set()
    for word in command[2:]:
        found = _CHECKOUT.match(word)
        if found and found["extras"]:
            extras |= set(found["extras"].split(","))
    return extras


PIP = [(s.where, c) for s in snippets() for c in s.commands if is_pip_install(c)]
COMMANDS = [(s.where, c) for s in snippets() for c in s.commands if is_eden_memory(c)]


@pytest.mark.parametrize(("where", "command"), PIP, ids=[w for w, _ in PIP])
def test_an_install_line_installs_the_checkout_with_defined_extras(
    where: str, command: tuple[str, ...]
) -> None:
    for word in command[2:]:
        assert not word.startswith("eden-memory"), f"{where}: not on an index: {word}"
        if word.startswith(".") and not _CHECKOUT.match(word):
            pytest.fail(f"{where}: {word!r} is not the checkout with extras")
    assert _installs(command) <= _extras(), f"{where}: {sorted(_installs(command) - _extras())}"
    requirements = [command[i + 1] for i, word in enumerate(command[:-1]) if word == "-r"]
    for path in requirements:
        assert (ROOT / path).is_file(), f"{where}: no {path}"


def _resolve(command: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The command's path (``facts list``) and the option names it uses; fails on unknown."""
    group: Any = typer.main.get_command(app)
    context = group.make_context("eden-memory", ["--help"], resilient_parsing=True)
    current, path, options = group, list[str](), list[str]()
    words = list(command[1:])
    while words:
        word = words.pop(0)
        if word in (">", "<", "2>"):  # a shell redirection: the command ends here
            break
        if word.startswith("-"):
            name = word.split("=")[0]
            known = {o: p for p in current.params for o in [*p.opts, *p.secondary_opts]}
            assert name in known, f"{' '.join(['eden-memory', *path])} has no option {name}"
            options.append(name)
            if not (known[name].is_flag or "=" in word) and words:
                words.pop(0)  # the option's value
        elif hasattr(current, "get_command"):
            sub = current.get_command(context, word)
            assert sub is not None, f"eden-memory has no command {' '.join([*path, word])}"
            current, path = sub, [*path, word]
    return path, options


# A span in a sentence that only names a command (`eden-memory import`) is not run.
INVOKED = [
    (s.where, c)
    for s in snippets()
    for c in s.commands
    if is_eden_memory(c) and (s.fenced or len(_resolve(c)[0]) < len(c) - 1)
]


@cache
def _help(path: tuple[str, ...]) -> int:
    return CliRunner().invoke(app, [*path, "--help"]).exit_code


@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_an_eden_memory_command_names_what_exists(where: str, command: tuple[str, ...]) -> None:
    path, _ = _resolve(command)
    assert _help(tuple(path)) == 0, where


def test_a_snippet_installs_what_its_commands_need() -> None:
    for snippet in snippets():
        installed: set[str] = set()
        for command in snippet.commands:
            if is_pip_install(command):
                installed |= _installs(command)
            elif is_eden_memory(command) and installed:
                path, _ = _resolve(command)
                needs = [CLI, NEEDS.get(path[0] if path else "", CLI)]
                for one_of in needs:
                    assert installed & one_of, f"{snippet.where}: {command} needs one of {one_of}"


def _runs(command: tuple[str, ...]) -> bool:
    path, options = _resolve(command)
    return any(tuple(path + options)[: len(run)] == run for run in RUNS)


def test_the_offline_commands_run_for_real(tmp_path: Path) -> None:
    """In a folder where a host already keeps its store (the commands that only read or
    maintain one refuse a store that does not exist)."""
    env = user_env(user_site(tmp_path / "site", offline=True), EDEN_MEMORY_EMBEDDER="keyword")
    asyncio.run(empty_store(tmp_path / ".eden-memory" / "memory.db"))
    ran = []
    for where, command in INVOKED:
        if not _runs(command):
            continue
        words = list(command[1:])
        output = None
        if ">" in words:
            words, output = words[: words.index(">")], tmp_path / words[words.index(">") + 1]
        done = subprocess.run(
            [sys.executable, "-m", "eden_memory", *words],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, f"{where}: {' '.join(command)}\n{done.stderr}"
        if output is not None:
            output.write_text(done.stdout, encoding="utf-8")
        ran.append(command[1])
    assert {"--version", "process-cold", "export", "import", "setup-indexes"} <= set(ran)
