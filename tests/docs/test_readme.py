"""The README's Python runs as written, so it never drifts from the code."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def python_blocks(markdown: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.S)


def test_the_readme_quickstart_runs_offline(tmp_path: Path) -> None:
    [quickstart] = python_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    script = tmp_path / "quickstart.py"
    script.write_text(quickstart, encoding="utf-8")
    # This checkout's code, not whichever eden_memory the environment has installed.
    env = {**os.environ, "EDEN_MEMORY_EMBEDDER": "keyword", "PYTHONPATH": str(ROOT)}
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
