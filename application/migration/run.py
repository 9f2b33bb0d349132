"""``migrate_v1``: move the first memory system's data into an eden-memory store.

One agent at a time: read its v1 documents, plan (pure), then write what the target does
not hold yet. A run that crashes leaves an unfinished manifest; running the same job again
resumes that run (same run id), so its rollback still covers everything it wrote.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from datetime import datetime

from eden_memory.application.migration.mapping import plan_agent
from eden_memory.application.migration.model import (
    NO_AGENT,
    Issue,
    Kind,
    MigrationOptions,
    MigrationReport,
)
from eden_memory.application.migration.writes import Writer, key_from
from eden_memory.application.spaces import require_space
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.migration.values import id_list, source_id, valid_id
from eden_memory.domain.settings import ConsolidationSettings, ScopeNumbers
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.migration import (
    AGENTS,
    SESSIONS,
    USERS,
    RunJournal,
    V1Doc,
    V1Source,
)
from eden_memory.ports.stores import Stores


def job_fingerprint(source: V1Source, options: MigrationOptions) -> str:
    parts = {"source": source.label, **options.fingerprint_parts()}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def new_run_id(now: datetime) -> str:
    return f"v1-{now:%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:6]}"


async def migrate_v1(
    source: V1Source,
    stores: Stores,
    embedder: Embedder,
    journal: RunJournal | None,
    options: MigrationOptions,
    now: datetime,
    word_limits: ScopeNumbers | None = None,
    on_agent: Callable[[int, int], None] | None = None,
) -> MigrationReport:
    """Migrate (or, with ``options.dry_run``, only plan) and return the report.

    ``journal`` may be None only for a dry run, which writes nothing anywhere.
    ``on_agent(done, total)`` is told after each agent is migrated (progress).
    """
    limits = word_limits or ConsolidationSettings().word_limits
    await require_space(stores.facts, embedder)  # another model than the store's: refused up front
    run_id: str | None = None
    resumed = False
    owned: set[str] = set()
    if not options.dry_run:
        if journal is None:
            raise InvalidInputError("a migration that writes needs a run journal (a manifest)")
        fingerprint = job_fingerprint(source, options)
        run_id = await journal.unfinished(fingerprint)
        resumed = run_id is not None
        if run_id is None:
            run_id = new_run_id(now)
            await journal.start(
                run_id,
                {
                    "run_id": run_id,
                    "fingerprint": fingerprint,
                    "source": source.label,
                    "options": options.fingerprint_parts(),
                    "started_at": now.isoformat(),
                },
            )
        else:
            owned = _owned(await journal.entries(run_id))
    report = MigrationReport(run_id=run_id, dry_run=options.dry_run, resumed=resumed)
    writer = Writer(stores, embedder, journal, run_id, report, options.fact_batch_size, owned)
    if options.agent_id is None:
        agents = await source.agent_ids()
    else:
        agents = [source_id(options.agent_id) or options.agent_id]
    adopted: set[str] = set()
    for done, agent in enumerate(agents, start=1):
        adopted |= await _migrate_agent(source, writer, agent, options, now, embedder, limits)
        if on_agent is not None:
            on_agent(done, len(agents))
    if options.agent_id is None:
        await _report_unowned(source, report, adopted)
    if journal is not None and run_id is not None:
        await journal.finish(run_id, report.as_dict())
    return report


def _owned(entries: list[dict[str, object]]) -> set[str]:
    owned: set[str] = set()
    for entry in entries:
        if entry.get("type") in ("fact", "reflection"):
            owned.add(str(entry["id"]))
        elif entry.get("type") == "blob" and isinstance(key := entry.get("key"), dict):
            owned.add(key_from(key).as_text())
    return owned


async def _report_unowned(source: V1Source, report: MigrationReport, adopted: set[str]) -> None:
    """Documents no agent owns, except the ones an agent's references adopted."""
    for collection, ids in (await source.unowned()).items():
        for v1_id in ids:
            if collection == SESSIONS and v1_id in adopted:
                continue
            tally = report.tally(NO_AGENT, Kind.OTHER)
            tally.source += 1
            tally.skipped += 1
            reason = "missing or unusable agent_id"
            report.issues.append(Issue(NO_AGENT, Kind.OTHER, collection, v1_id, reason))


async def _migrate_agent(
    source: V1Source,
    writer: Writer,
    agent: str,
    options: MigrationOptions,
    now: datetime,
    embedder: Embedder,
    limits: ScopeNumbers,
) -> set[str]:
    """Migrate one agent; returns the ids of agent-less records its references adopted."""
    users = await source.user_memories(agent)
    shards = await source.agent_shards(agent)
    docs = await source.session_memories(agent)
    agent_id = valid_id(agent)
    report = writer.report
    if agent_id is None:
        for collection, found in ((USERS, users), (AGENTS, shards), (SESSIONS, docs)):
            for doc in found:
                tally = report.tally(agent, Kind.OTHER)
                tally.source += 1
                tally.skipped += 1
                reason = "agent_id is not usable as an eden-memory id"
                report.issues.append(
                    Issue(agent, Kind.OTHER, collection, source_id(doc.get("_id")), reason)
                )
        return set()
    memories: dict[str, V1Doc] = {}
    for doc in docs:
        v1_id = source_id(doc.get("_id"))
        if v1_id is not None:
            memories[v1_id] = doc
    wanted = [
        ref
        for doc in (*users, *shards)
        for field in ("unabsorbed_memory_ids", "facts")
        for ref in id_list(doc.get(field))
        if ref not in memories
    ]
    adopted: set[str] = set()
    if wanted:
        for doc in await source.session_memories_by_id(sorted(set(wanted))):
            v1_id = source_id(doc.get("_id"))
            if v1_id is not None and v1_id not in memories:
                memories[v1_id] = doc
                adopted.add(v1_id)
    plan = plan_agent(agent_id, users, shards, memories, options, now, embedder.space, limits)
    await writer.apply(plan)
    return adopted
