"""Running a migration in tests, and comparing target stores by what they hold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from eden_memory.adapters.migration import JsonFileJournal
from eden_memory.application.migration import (
    MigrationOptions,
    MigrationReport,
    V1Source,
    migrate_v1,
)
from eden_memory.domain.ids import AgentId
from eden_memory.ports.stores import FactQuery, Stores
from eden_memory.testing import KeywordEmbedder
from tests.migration.v1_data import AGENT_A_ID, AGENT_B_ID, NOW

AGENTS = (AGENT_A_ID, AGENT_B_ID, "host-agent")


async def run(
    source: V1Source,
    store: Stores,
    state: Path,
    **options: Any,
) -> MigrationReport:
    journal = JsonFileJournal(state)
    return await migrate_v1(
        source, store, KeywordEmbedder(), journal, MigrationOptions(**options), NOW
    )


async def snapshot(store: Stores) -> dict[str, Any]:
    """Everything the target holds for the agents the tests use (not revision counters)."""
    out: dict[str, Any] = {}
    for agent in AGENTS:
        facts = await store.fact_records.list_facts(
            FactQuery(AgentId(agent), status=None, limit=10_000)
        )
        vectors = await store.facts.get_vectors([f.id for f in facts])
        reflections = await store.buffers.list_reflections(
            AgentId(agent), None, include_absorbed=True
        )
        blobs = await store.note_records.list_consolidated(AgentId(agent))
        out[agent] = {
            "facts": sorted((f.model_dump(mode="json") for f in facts), key=lambda d: d["id"]),
            "vectors": {k: [round(x, 6) for x in v] for k, v in sorted(vectors.items())},
            "reflections": sorted(
                (r.model_dump(mode="json") for r in reflections), key=lambda d: d["id"]
            ),
            "blobs": sorted(
                (b.model_dump(mode="json") for b in blobs), key=lambda d: d["scope"] + str(d)
            ),
        }
    return out
