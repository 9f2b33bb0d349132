"""``eden-memory mcp`` as a client starts it: a real subprocess over stdio, the SDK's client."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDEN_MEMORY_")}
    return env | {
        "PYTHONPATH": str(ROOT),
        "EDEN_MEMORY_EMBEDDER": "keyword",
        "EDEN_MEMORY_STORE_PATH": str(tmp_path / "memory.db"),
    }


def _text(result: object) -> str:
    content = getattr(result, "content", [])
    return "\n".join(c.text for c in content if isinstance(c, TextContent))


async def test_a_stdio_client_records_searches_and_hears_why_end_session_fails(
    tmp_path: Path,
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "eden_memory", "mcp", "--agent", "nova", "--user", "alice"],
        env=_env(tmp_path),
        cwd=str(tmp_path),
    )
    turn = [
        {"role": "user", "content": "My cat is called Tom."},
        {"role": "assistant", "content": [{"type": "text", "text": "Hello Tom!"}]},
    ]
    with (tmp_path / "stderr.txt").open("w+") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            recorded = await client.call_tool("record_messages", {"messages": turn})
            found = await client.call_tool("search_facts", {"query": "cat", "top_k": 5})
            unknown = await client.call_tool("search_facts", {"query": "cat", "k": 5})
            ended = await client.call_tool("end_session", {})
        errlog.seek(0)
        stderr = errlog.read()
    assert not recorded.is_error, _text(recorded)
    assert "recorded 2 message(s)" in _text(recorded)
    assert not found.is_error, _text(found)
    assert unknown.is_error
    assert "k" in _text(unknown)
    assert ended.is_error
    assert "EDEN_MEMORY_LLM_PROVIDER" in _text(ended)
    assert "warning: no LLM" in stderr
    assert "end_session" in stderr


def test_without_the_mcp_extra_the_command_says_which_extra_in_one_line(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['mcp'] = None; "
        "sys.argv = ['eden-memory', 'mcp', '--agent', 'nova']; "
        "from eden_memory.cli import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=_env(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: the MCP server needs the 'mcp' package, in the eden-memory[mcp] extra: "
        'pip install -e ".[mcp]" in the eden-memory checkout'
    ]
