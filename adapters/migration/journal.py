"""``JsonFileJournal``: a migration run's manifest and report as files in a directory.

Layout, one directory per run under ``root``::

    <run_id>/header.json     the job: source, options, fingerprint, start time
    <run_id>/manifest.jsonl  one line per record the run wrote, appended and fsynced
                             *before* the write
    <run_id>/report.json     the final report; its presence marks the run finished
    <run_id>/rollback.json   written by a rollback

Files, not the target store, because the manifest must outlive a rollback of that store
and the store port has no general-purpose record type.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from eden_memory.domain.errors import InvalidInputError, StoreCorruptedError
from eden_memory.domain.ids import check_id

HEADER = "header.json"
MANIFEST = "manifest.jsonl"
REPORT = "report.json"
ROLLBACK = "rollback.json"


class JsonFileJournal:
    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def _dir(self, run_id: str) -> Path:
        check_id(run_id, "run id")
        if "/" in run_id or run_id.startswith("."):
            raise InvalidInputError(f"run id {run_id!r} is not a plain name")
        return self.root / run_id

    @staticmethod
    def _write(path: Path, data: Mapping[str, Any]) -> None:
        partial = path.with_suffix(path.suffix + ".partial")
        partial.write_text(json.dumps(data, indent=2, default=str), encoding="utf-8")
        os.replace(partial, path)

    @staticmethod
    def _read(path: Path) -> dict[str, Any] | None:
        if not path.exists():
            return None
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise _damaged(path, str(error)) from error
        if not isinstance(loaded, dict):
            raise _damaged(path, f"a JSON {type(loaded).__name__}, not an object")
        return loaded

    async def start(self, run_id: str, header: Mapping[str, Any]) -> None:
        folder = self._dir(run_id)
        folder.mkdir(parents=True, exist_ok=False)
        (folder / MANIFEST).touch()
        self._write(folder / HEADER, header)

    async def header(self, run_id: str) -> dict[str, Any] | None:
        return self._read(self._dir(run_id) / HEADER)

    async def unfinished(self, fingerprint: str) -> str | None:
        if not self.root.is_dir():
            return None
        found: list[tuple[str, str]] = []
        for folder in self.root.iterdir():
            header = self._read(folder / HEADER) if folder.is_dir() else None
            if header is None or header.get("fingerprint") != fingerprint:
                continue
            if (folder / REPORT).exists() or (folder / ROLLBACK).exists():
                continue
            found.append((str(header.get("started_at", "")), folder.name))
        return max(found)[1] if found else None

    async def record(self, run_id: str, entries: Sequence[Mapping[str, Any]]) -> None:
        lines = "".join(json.dumps(e, default=str) + "\n" for e in entries)
        # fsync can take a while on a busy disk: keep the event loop free meanwhile.
        await asyncio.to_thread(self._append, self._dir(run_id) / MANIFEST, lines)

    @staticmethod
    def _append(path: Path, lines: str) -> None:
        with path.open("a", encoding="utf-8") as sink:
            sink.write(lines)
            sink.flush()
            os.fsync(sink.fileno())

    async def entries(self, run_id: str) -> list[dict[str, Any]]:
        path = self._dir(run_id) / MANIFEST
        if not path.exists():
            return []
        try:
            lines = [
                (n, t) for n, t in enumerate(path.read_text("utf-8").splitlines(), 1) if t.strip()
            ]
        except UnicodeDecodeError as error:
            raise _damaged(path, str(error)) from error
        out: list[dict[str, Any]] = []
        for n, line in lines:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as error:
                if n == lines[-1][0]:
                    continue  # the last line, torn by a crash mid-append: its write never happened
                # Only the last line can be torn by a crash: a damaged line before it is a
                # record of a write that happened, and a rollback must not miss it.
                raise _damaged(path, f"line {n}: {error}") from error
            if not isinstance(entry, dict):
                raise _damaged(path, f"line {n} is a JSON {type(entry).__name__}, not an object")
            out.append(entry)
        return out

    async def finish(self, run_id: str, report: Mapping[str, Any]) -> None:
        self._write(self._dir(run_id) / REPORT, report)

    async def report(self, run_id: str) -> dict[str, Any] | None:
        return self._read(self._dir(run_id) / REPORT)

    async def mark_rolled_back(self, run_id: str, summary: Mapping[str, Any]) -> None:
        self._write(self._dir(run_id) / ROLLBACK, summary)

    async def rolled_back(self, run_id: str) -> dict[str, Any] | None:
        return self._read(self._dir(run_id) / ROLLBACK)


def _damaged(path: Path, problem: str) -> StoreCorruptedError:
    return StoreCorruptedError(
        f"the migration journal file {path} is damaged ({problem}): restore it from a backup, "
        "or move its run folder out of the journal to leave that run behind"
    )
