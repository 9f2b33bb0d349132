"""``eden-memory add-facts``: store facts a host already has, from JSON Lines, with no LLM."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from eden_memory.application.ingestion.facts import DEFAULT_BATCH_SIZE, IngestReport
from eden_memory.application.service import MemoryService
from eden_memory.cli.output import complain, say
from eden_memory.cli.progress import Progress
from eden_memory.cli.runtime import State
from eden_memory.domain.scopes import Scope


def _records(
    lines: list[bytes], defaults: dict[str, Any], user: str | None
) -> tuple[list[dict[str, Any]], list[int], list[str]]:
    """The objects of the non-blank lines with the defaults filled in, the line number of
    each, and the lines that are not UTF-8 JSON objects."""
    records: list[dict[str, Any]] = []
    numbers: list[int] = []
    errors: list[str] = []
    for number, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            errors.append(f"line {number}: not UTF-8 (byte 0x{raw[error.start]:02x})")
            continue
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as error:
            errors.append(f"line {number}: not valid JSON ({error})")
            continue
        except RecursionError:  # thousands of nested brackets: the parser gives up
            errors.append(f"line {number}: not valid JSON (nested too deep)")
            continue
        if not isinstance(record, dict):
            errors.append(f"line {number}: not a JSON object")
            continue
        record = {**defaults, **record}
        if user is not None and record.get("scope", "user") == "user":
            record.setdefault("user_id", user)
        records.append(record)
        numbers.append(number)
    return records, numbers, errors


def _print(report: IngestReport, numbers: list[int], errors: list[str]) -> None:
    superseded = f", superseded {len(report.superseded)}" if report.superseded else ""
    say(
        f"added {len(report.added)}, duplicates {report.duplicates}, "
        f"rejected {len(report.rejected) + len(errors)}{superseded}, "
        f"embedding calls {report.embedding_calls}"
    )
    lines = errors + [f"line {numbers[r.index]}: {r.reason}" for r in report.rejected]
    for line in sorted(lines, key=lambda text: int(text.split(":")[0].split()[1])):
        complain(line)


def add_facts_command(
    ctx: typer.Context,
    source: Annotated[
        str, typer.Argument(help="A JSON Lines file, or - for standard input.")
    ] = "-",
    agent: Annotated[
        str | None, typer.Option("--agent", "-a", help="agent_id for lines without one.")
    ] = None,
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="user_id for user-scoped lines without one.")
    ] = None,
    scope: Annotated[Scope | None, typer.Option(help="scope for lines without one.")] = None,
    batch: Annotated[int, typer.Option(help="Facts per embedding call.")] = DEFAULT_BATCH_SIZE,
    max_words: Annotated[
        int | None, typer.Option(min=1, help="Refuse facts longer than this many words.")
    ] = None,
) -> None:
    """Add facts directly, no LLM: one JSON object per line with content, scope (user or
    agent), agent_id, user_id (user scope), formed_at (ISO 8601 with a time zone), and
    optionally source_session_id, source_message_ids, id, key (what the fact is about: the
    newest fact of a key is kept, the older ones retired), supersedes (the id of a fact it
    replaces) and valid_until (when it stops being true). Exact duplicates are skipped;
    invalid lines (not UTF-8, not JSON, nested too deep, or not a valid fact) are reported on
    stderr, one line each, with exit code 1, and the valid lines are still added (before and
    after them). Progress goes to stderr."""
    if source != "-" and not Path(source).is_file():
        raise typer.BadParameter(f"no file {source}", param_hint="SOURCE")
    data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    defaults: dict[str, Any] = {}
    if agent is not None:
        defaults["agent_id"] = agent
    if scope is not None:
        defaults["scope"] = scope.value
    records, numbers, errors = _records(data.splitlines(), defaults, user)

    async def work(memory: MemoryService) -> IngestReport:
        progress = Progress("add-facts", total=len(records))
        report = await memory.admin.add_facts(
            records, batch_size=batch, max_words=max_words, on_progress=progress.advance
        )
        progress.finish()
        return report

    report = ctx.ensure_object(State).run(work, creates=True)
    _print(report, numbers, errors)
    if report.rejected or errors:
        raise typer.Exit(1)


__all__ = ["add_facts_command"]
