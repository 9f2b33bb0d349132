"""The README works as written: its first command, its console line, its Python.

Each runs as a user of the installed package runs it (``tests.installed``), offline.
"""

from __future__ import annotations

import http.cookiejar
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.docs.shell_lines import ROOT, is_eden_memory, snippets
from tests.installed import user_env, user_site

TOKEN = "readme-test-token"


def python_blocks(markdown: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.S)


def test_the_readme_quickstart_runs_offline(tmp_path: Path) -> None:
    [quickstart] = python_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    script = tmp_path / "quickstart.py"
    script.write_text(quickstart, encoding="utf-8")
    env = user_env(user_site(tmp_path / "site", offline=True), EDEN_MEMORY_EMBEDDER="keyword")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "memory.db").exists()  # open_memory(store="memory.db")
    # The memory is found, not an empty list: in the context and by search_facts.
    assert "- [user] Alice's order number is 4417" in done.stdout
    assert done.stdout.rstrip().endswith('["Alice\'s order number is 4417"]')


def _readme_commands() -> list[tuple[str, ...]]:
    return [
        command
        for snippet in snippets()
        if snippet.where.startswith("README.md")
        for command in snippet.commands
        if is_eden_memory(command)
    ]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str, seconds: float = 60) -> str:
    """The page, once the console listens (the token once: then its cookie)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    deadline = time.monotonic() + seconds
    while True:
        try:
            with opener.open(url, timeout=10) as answer:
                return str(answer.read().decode("utf-8"))
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def test_the_demo_then_the_console_line_show_the_demos_memory(tmp_path: Path) -> None:
    """Command 1 of the README, then its console line, both as written: the console opens
    the demo's store on the demo's agent (only the port is chosen here, to be free)."""
    demo, console = _readme_commands()[:2]
    assert demo == ("eden-memory", "demo")
    assert "console" in console
    env = user_env(
        user_site(tmp_path / "site", offline=True),
        EDEN_MEMORY_EMBEDDER="keyword",
        EDEN_MEMORY_CONSOLE_TOKEN=TOKEN,
    )
    run = [sys.executable, "-m", "eden_memory"]
    done = subprocess.run(
        [*run, *demo[1:]], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    port = _free_port()
    server = subprocess.Popen(
        [*run, *console[1:], "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        agent = console[console.index("--agent") + 1]
        page = _get(f"http://127.0.0.1:{port}/agent?agent={agent}&token={TOKEN}")
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert "The Aurora festival budget is 45000 euros" in page  # the demo's memory
