"""Telemetry is off unless chosen: nothing of OpenTelemetry is imported, and the settings
choose the adapter through the container."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from eden_memory.adapters.telemetry.otel import OtelTelemetry
from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.config import EdenMemoryConfig
from eden_memory.container import Container
from tests.installed import user_env, user_site

# A host's round with the default settings: a turn, its formation, a search and a context,
# through ``MemoryService`` or ``open_memory``; then what was imported.
ROUND = """
import asyncio, sys
from datetime import UTC, datetime
from eden_memory.domain.models import Message, Role
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.testing import KeywordEmbedder, ScriptedLLM, SystemClock, memory_stores

FACT = {"facts": [{"content": "Alice's order is 4417.", "scope": "user", "source_messages": [1]}]}
LLM = ScriptedLLM(lambda request, schema: {}, by_purpose={"fact_extraction": [FACT]})

async def serve(memory):
    chat = memory.conversation(AgentMemoryConfig("bot"), "s1", ["alice"])
    said = Message(id="m1", role=Role.USER, text="My order is 4417.",
                   sent_at=datetime.now(UTC), author_id="alice")
    await memory.record_messages(chat, [said])
    report = await memory.end_session(chat)
    assert report is not None and report.facts_added, report
    assert (await memory.search_facts(chat, ["order number"])).results
    assert "4417" in (await memory.get_context(chat)).xml

async def main(how):
    if how == "service":
        from eden_memory.application.service import MemoryService
        await serve(MemoryService(memory_stores(), KeywordEmbedder(), LLM, SystemClock()))
    else:
        from eden_memory import open_memory
        from eden_memory.config import EdenMemoryConfig
        config = EdenMemoryConfig(store="memory", embedder="keyword")
        async with open_memory(config, llm=LLM) as memory:
            await serve(memory)
    names = ("opentelemetry", "eden_memory.adapters.telemetry.otel")
    print("loaded:", sorted(m for m in sys.modules if m.startswith(names)))

asyncio.run(main(sys.argv[1]))
"""


def _round(folder: Path, how: str, without: tuple[str, ...] = ()) -> str:
    site = user_site(folder / "site", without)
    done = subprocess.run(
        [sys.executable, "-c", ROUND, how],
        cwd=folder,
        env=user_env(site),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    last: str = done.stdout.strip().splitlines()[-1]
    return last


def test_a_service_without_telemetry_imports_nothing_of_opentelemetry(tmp_path: Path) -> None:
    assert _round(tmp_path, "service") == "loaded: []"


def test_the_container_with_telemetry_off_needs_no_opentelemetry(tmp_path: Path) -> None:
    """Made unimportable (as without the extra), and the round still runs. (Installed, it
    may be imported all the same: dependency-injector imports FastAPI when present, and
    FastAPI 0.12x imports OpenTelemetry's API.)"""
    assert _round(tmp_path, "open_memory", ("opentelemetry",)) == "loaded: []"


def test_the_settings_choose_the_telemetry() -> None:
    off = Container(config=EdenMemoryConfig(store="memory", embedder="keyword"))
    assert off.telemetry() is NO_TELEMETRY
    on = EdenMemoryConfig(store="memory", embedder="keyword", telemetry="otel")
    chosen = Container(config=on).telemetry()
    assert isinstance(chosen, OtelTelemetry)
    assert chosen._provider("chat", "gemini-3-pro-preview") == "unknown"  # no LLM provider
    assert chosen._provider("embeddings", "keyword-hash") == "keyword"
    gemini = on.model_copy(update={"llm_provider": "gemini"})
    assert Container(config=gemini).telemetry()._provider("chat", "any") == "gcp.gemini"  # type: ignore[attr-defined]
