"""Every ```python block of docs/*.md runs as written: ``python block.py``, offline.

No block is skipped: each is a complete program, run in its own process and temporary
folder as a user of the installed package runs it (``tests.installed``: only ``eden_memory``
importable, no provider keys, the network closed), with the keyword embedder. A block that
talks to MongoDB reads ``EDEN_MEMORY_MONGODB_URI`` (and the v1 migration
``EDEN_MEMORY_V1_URI``), the settings a user sets; here they name a local SecantusDB server.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.installed import ROOT, user_env, user_site
from tests.unit.adapters.mongo import wire_server

_BLOCK = re.compile(r"```python\n(?P<code>.*?)```", re.S)


def blocks() -> list[tuple[str, str]]:
    found = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for number, match in enumerate(_BLOCK.finditer(text), start=1):
            found.append((f"{page.name}#{number}", match["code"]))
    return found


@pytest.fixture(scope="module")
def mongodb_uri() -> Iterator[str]:
    if not wire_server.available():
        pytest.fail(f"{wire_server.SERVER} is not installed: pip install -e '.[dev]'")
    with wire_server.wire_server() as uri:
        yield uri


def test_no_page_keeps_a_skip_marker() -> None:
    """Every block runs; a marker that once skipped one would only mislead a reader."""
    for page in (ROOT / "docs").glob("*.md"):
        assert "docs-test" not in page.read_text(encoding="utf-8"), page.name


@pytest.mark.parametrize(("where", "code"), blocks(), ids=[w for w, _ in blocks()])
def test_the_docs_python_runs(
    where: str, code: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    env = user_env(user_site(tmp_path / "site", offline=True), EDEN_MEMORY_EMBEDDER="keyword")
    if "mongo" in code.lower():
        uri = request.getfixturevalue("mongodb_uri")
        env |= {"EDEN_MEMORY_MONGODB_URI": uri, "EDEN_MEMORY_V1_URI": uri}
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, f"{where} failed:\n{done.stderr}"
