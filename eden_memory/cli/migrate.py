"""``migrate-v1`` and ``rollback-v1``: move a first-memory-system database into the
configured store, and undo a run. The mapping and the guarantees are in docs/migration.md."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

import typer

from eden_memory.adapters.migration.journal import JsonFileJournal
from eden_memory.application.migration import (
    MigrationOptions,
    MigrationReport,
    migrate_v1,
    rollback_v1,
)
from eden_memory.cli.output import rows, say
from eden_memory.cli.progress import Progress
from eden_memory.cli.runtime import State
from eden_memory.cli.values import finite
from eden_memory.domain.errors import InvalidInputError
from eden_memory.factory import open_memory

DEFAULT_STATE = Path(".eden-memory/migrations")
StateDir = Annotated[
    Path,
    typer.Option(
        "--state-dir", help="Where each run keeps its manifest and report (needed for rollback)."
    ),
]
SHOWN_ISSUES = 30
MOST_HOURS = 24 * 366 * 100  # a century: timedelta overflows long before float does


def source_label(uri: str, database: str) -> str:
    """The source's hosts and database, never its credentials (the label goes into files)."""
    from pymongo.uri_parser import parse_uri

    try:
        hosts = ",".join(f"{h}:{p}" for h, p in parse_uri(uri)["nodelist"])
    except Exception:  # an SRV or odd URI: fall back to something without a password
        hosts = uri.split("@")[-1].split("/")[0].split("?")[0]
    return f"mongodb://{hosts}/{database}"


def migrate_v1_command(
    ctx: typer.Context,
    source_uri: Annotated[
        str, typer.Option(envvar="EDEN_MEMORY_V1_URI", help="MongoDB URI of the v1 data.")
    ],
    source_db: Annotated[str, typer.Option(help="Database holding memory_* collections.")],
    dry_run: Annotated[bool, typer.Option(help="Show what would be written; write nothing.")] = (
        False
    ),
    agent: Annotated[str | None, typer.Option(help="Migrate only this agent.")] = None,
    include_paused_shards: Annotated[
        bool, typer.Option(help="Merge paused shards too (titled '(paused in v1)').")
    ] = False,
    active_session_episodes: Annotated[
        bool, typer.Option(help="Turn episodes of still-active sessions into session memory.")
    ] = False,
    active_within_hours: Annotated[
        float,
        typer.Option(
            min=0,
            max=MOST_HOURS,
            callback=finite,
            help="A session is active if its newest episode is this recent.",
        ),
    ] = 24.0,
    batch_size: Annotated[
        int, typer.Option(min=1, max=4096, help="Facts per embedding call.")
    ] = 64,
    state_dir: StateDir = DEFAULT_STATE,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full report as JSON.")] = (
        False
    ),
) -> None:
    """Migrate the first memory system's collections into this store (idempotent, resumable)."""
    from pymongo import AsyncMongoClient
    from pymongo.errors import PyMongoError

    from eden_memory.adapters.migration.mongo_source import MongoV1Source
    from eden_memory.adapters.stores.mongo.errors import translate

    options = MigrationOptions(
        agent_id=agent,
        include_paused_shards=include_paused_shards,
        active_session_episodes=active_session_episodes,
        active_within=timedelta(hours=active_within_hours),
        fact_batch_size=batch_size,
        dry_run=dry_run,
    )
    config = ctx.ensure_object(State).config()

    async def work() -> MigrationReport:
        try:
            client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(source_uri)
        except ValueError as error:  # pymongo's parser, before any PyMongoError
            raise InvalidInputError(f"--source-uri is not a MongoDB URI: {error}") from None
        try:
            async with open_memory(config) as memory:
                source = MongoV1Source(client[source_db], label=source_label(source_uri, source_db))
                journal = None if dry_run else JsonFileJournal(state_dir)
                progress = Progress("migrate-v1 agents")

                def on_agent(done: int, total: int) -> None:
                    progress.total = total
                    progress.advance(1)

                report = await migrate_v1(
                    source,
                    memory.admin.stores,
                    memory.admin.embedder,
                    journal,
                    options,
                    datetime.now(UTC),
                    memory.settings.consolidation.word_limits,
                    on_agent,
                )
                progress.finish()
                return report
        finally:
            await client.close()

    try:
        report = asyncio.run(work())
    except PyMongoError as error:  # the client's own (an SRV name that does not resolve):
        # the reader translates its reads itself, naming each ("reading v1 agent ids").
        raise translate(error, "reading the v1 data") from None
    if as_json:
        print(json.dumps(report.as_dict(), indent=2, default=str))
        return
    _print(report, state_dir)


def _print(report: MigrationReport, state_dir: Path) -> None:
    if report.dry_run:
        say("dry run: nothing was written. It would write:")
        for line in report.writes:
            say(f"  {line}")
    headers = ("agent", "kind", "source", "would write" if report.dry_run else "written")
    data = [
        [agent, kind.value, *(str(n) for n in (t.source, t.written, t.present, t.skipped))]
        for agent, kinds in sorted(report.tallies.items())
        for kind, t in sorted(kinds.items())
    ]
    rows((*headers, "present", "skipped"), data)
    issues = report.issues if report.dry_run else report.issues[:SHOWN_ISSUES]
    for issue in issues:
        say(
            f"  {issue.agent_id} {issue.kind.value} {issue.collection} {issue.source_id}: "
            f"{issue.reason}"
        )
    if len(issues) < len(report.issues):
        say(f"  … {len(report.issues) - len(issues)} more in the report")
    if report.agent_profiles:
        say(
            f"memory instructions for {len(report.agent_profiles)} agent(s) are in the report "
            "(agent_profiles): pass them as AgentMemoryConfig(memory_instructions=...)"
        )
    if report.run_id is not None:
        where = state_dir / report.run_id
        resumed = " (resumed)" if report.resumed else ""
        say(f"run {report.run_id}{resumed}: report and manifest in {where}")
        say(f"undo with: eden-memory rollback-v1 --run-id {report.run_id}")


def rollback_v1_command(
    ctx: typer.Context,
    run_id: Annotated[str, typer.Option(help="The run to undo (printed by migrate-v1).")],
    state_dir: StateDir = DEFAULT_STATE,
) -> None:
    """Remove exactly what one migrate-v1 run wrote; v1 data was never touched."""
    config = ctx.ensure_object(State).store_config()

    async def work() -> dict[str, Any]:
        async with open_memory(config) as memory:
            journal = JsonFileJournal(state_dir)
            done = await rollback_v1(memory.admin.stores, journal, run_id, datetime.now(UTC))
            return done.as_dict()

    summary = asyncio.run(work())
    say(
        f"rolled back {run_id}: {summary['facts_removed']} facts, "
        f"{summary['reflections_removed']} reflections, {summary['blobs_restored']} blobs"
    )
    for line in summary["left"]:
        say(f"  kept: {line}")
