"""The Gemini loop example as a user runs it, offline and for real with a key.

Apart from the other examples: it needs only the ``gemini`` extra, so the Gemini adapters'
own check on google-genai 3.x (``scripts/check-genai3``) runs it too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.installed import ROOT, user_env, user_site
from tests.network_guard import integration_enabled

FOUND = 'From memory: Facts found for "email", best first:\n- [user] Alice\'s email is'


def _run(tmp_path: Path, *args: str, online: bool = False, **env: str) -> str:
    site = user_site(tmp_path / "site", offline=not online)
    done = subprocess.run(
        [sys.executable, "examples/gemini_loop.py", *args],
        cwd=ROOT,
        env=user_env(site, **env),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_gemini_loop_serves_search_facts_offline(tmp_path: Path) -> None:
    assert FOUND in _run(tmp_path)


@pytest.mark.integration
@pytest.mark.skipif(
    not (
        integration_enabled()
        and (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY"))
    ),
    reason="needs GEMINI_API_KEY (or GOOGLE_API_KEY) and EDEN_MEMORY_INTEGRATION=1",
)
def test_the_gemini_loop_with_the_real_api(tmp_path: Path) -> None:
    key = os.environ.get("GEMINI_API_KEY") or os.environ["GOOGLE_API_KEY"]
    assert "alice@example.com" in _run(tmp_path, "--real", online=True, GEMINI_API_KEY=key)
