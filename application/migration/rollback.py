"""``rollback_v1``: remove exactly what one migration run wrote.

The run's manifest says what that is. Facts and reflections are deleted by id, except a
fact a formation has updated since (version > 1) or a reflection a consolidation has
absorbed since: those now carry memory formed after the migration, so they stay and are
reported. A blob is put back as it was before the run (absent, or the empty blob it
replaced), but only while it is still the blob the run wrote: a blob the host has
consolidated since is left alone and reported, for the same reason. A run is rolled
back once; asking again changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from eden_memory.application.migration.writes import content_digest, key_from
from eden_memory.domain.errors import NotFoundError
from eden_memory.domain.ids import FactId, ReflectionId
from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import FACT_SCOPES, ScopeKey
from eden_memory.ports.migration import RunJournal
from eden_memory.ports.stores import FactQuery, FactRecords, NoteRecords, Stores


@dataclass
class RollbackReport:
    run_id: str
    facts_removed: int = 0
    reflections_removed: int = 0
    blobs_restored: int = 0
    # Records the run wrote that are no longer the run's to remove, with why.
    left: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "facts_removed": self.facts_removed,
            "reflections_removed": self.reflections_removed,
            "blobs_restored": self.blobs_restored,
            "left": self.left,
        }


async def rollback_v1(
    stores: Stores, journal: RunJournal, run_id: str, now: datetime
) -> RollbackReport:
    if await journal.header(run_id) is None:
        raise NotFoundError(f"no migration run {run_id!r} in the journal")
    report = RollbackReport(run_id)
    done = await journal.rolled_back(run_id)
    if done is not None:
        # Never twice: the same v1 data may have been migrated again since, under the same
        # deterministic ids, and those records are not this run's any more.
        report.left.append(f"already rolled back at {done.get('rolled_back_at', '?')}")
        return report
    entries = await journal.entries(run_id)
    facts = [FactId(str(e["id"])) for e in entries if e.get("type") == "fact"]
    reflections = [ReflectionId(str(e["id"])) for e in entries if e.get("type") == "reflection"]
    blobs = [e for e in entries if e.get("type") == "blob"]
    await _facts(stores.fact_records, facts, report)
    await _reflections(stores.note_records, reflections, report)
    for entry in reversed(blobs):
        await _blob(stores, entry, report)
    await journal.mark_rolled_back(run_id, {**report.as_dict(), "rolled_back_at": now.isoformat()})
    return report


async def _facts(facts: FactRecords, ids: list[FactId], report: RollbackReport) -> None:
    removable: list[FactId] = []
    for fact in await facts.get_facts(list(dict.fromkeys(ids))):
        if fact.version > 1:
            # A formation merged newer knowledge into it: removing it would lose that.
            report.left.append(f"fact {fact.id}: updated since the migration; kept")
        else:
            removable.append(fact.id)
    if removable:
        report.facts_removed = await facts.delete_facts(removable)


async def _reflections(
    buffers: NoteRecords, ids: list[ReflectionId], report: RollbackReport
) -> None:
    removable: list[ReflectionId] = []
    for reflection_id in dict.fromkeys(ids):
        found = await buffers.get_reflection(reflection_id)
        if found is None:
            continue
        if found.absorbed:
            report.left.append(
                f"reflection {reflection_id}: absorbed into a consolidation since; kept"
            )
        else:
            removable.append(reflection_id)
    if removable:
        report.reflections_removed = await buffers.delete_reflections(removable)


async def _blob(stores: Stores, entry: dict[str, Any], report: RollbackReport) -> None:
    key = key_from(entry["key"])
    current = (await stores.buffers.get_consolidated([key])).get(key)
    if current is None:
        return
    if (
        current.version != entry["written_version"]
        or content_digest(current.content) != entry["content_sha256"]
    ):
        report.left.append(f"blob {key.as_text()}: changed since the migration; kept")
        return
    previous = entry.get("previous")
    if previous is not None:
        restored = ConsolidatedMemory.model_validate(previous)
        if await stores.buffers.replace_consolidated(restored, expected_version=current.version):
            report.blobs_restored += 1
        return
    if await _holds_nothing_else(stores, key):
        # The run created the key's only record: removing the key removes just the blob.
        await stores.revisions.delete_scope(key)
        report.blobs_restored += 1
        return
    # No port removes a single blob; an empty version-0 blob renders and counts as none.
    empty = ConsolidatedMemory.empty(key, current.word_limit)
    if await stores.buffers.replace_consolidated(empty, expected_version=current.version):
        report.blobs_restored += 1
        report.left.append(f"blob {key.as_text()}: emptied (the scope holds other records)")


async def _holds_nothing_else(stores: Stores, key: ScopeKey) -> bool:
    if await stores.buffers.list_reflections(key.agent_id, key, include_absorbed=True):
        return False
    if key.scope in FACT_SCOPES:
        query = FactQuery(key.agent_id, scope=key.scope, user_id=key.user_id, status=None, limit=1)
        if await stores.fact_records.list_facts(query):
            return False
    return True
