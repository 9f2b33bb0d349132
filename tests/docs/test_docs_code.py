"""Every ```python block in docs/*.md runs, offline, so the docs never drift from the code.

A block that cannot run on its own (it needs a server, or is a fragment) is marked with
``<!-- docs-test: skip -->`` on the line before it. Each block runs in its own subprocess and
temporary directory, with the keyword embedder and no provider keys. Top-level ``await`` is
allowed (as in ``python -m asyncio``), so short async snippets need no ``asyncio.run`` wrapper.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP = "<!-- docs-test: skip -->"
_BLOCK = re.compile(r"(?P<before>[^\n]*)\n```python\n(?P<code>.*?)```", re.S)


# Runs the block like `python -m asyncio` would: top-level await allowed.
LAUNCHER = """
import ast, asyncio, inspect, sys
path = sys.argv[1]
code = compile(open(path, encoding="utf-8").read(), path, "exec",
               flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
scope = {"__name__": "__main__"}
result = eval(code, scope)
if inspect.iscoroutine(result):
    asyncio.run(result)
"""


def blocks() -> list[tuple[str, str]]:
    found = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for number, match in enumerate(_BLOCK.finditer("\n" + text), start=1):
            if SKIP not in match["before"]:
                found.append((f"{page.name}#{number}", match["code"]))
    return found


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env |= {"EDEN_MEMORY_EMBEDDER": "keyword", "PYTHONPATH": str(ROOT)}
    return env


@pytest.mark.parametrize(("where", "code"), blocks(), ids=[w for w, _ in blocks()])
def test_the_docs_python_runs(where: str, code: str, tmp_path: Path) -> None:
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", LAUNCHER, str(script)],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"{where} failed:\n{done.stderr}"
