"""What the CLI prints: user data and errors verbatim, tables for people, JSON for scripts.

No rich markup or emoji codes are ever read from data (a fact ``:rocket: [bold]noon`` prints
as itself), and nothing is wrapped when the output is not a terminal: there a table becomes
tab-separated lines, and ``--json`` gives the rows as JSON Lines.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text


def say(text: str) -> None:
    """A line of output, exactly as given."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def complain(text: str) -> None:
    """A line on standard error, exactly as given."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def rows(
    headers: Sequence[str],
    data: Sequence[Sequence[str]],
    as_json: bool = False,
    records: Sequence[Mapping[str, Any]] | None = None,
) -> None:
    """A table: rich on a terminal, tab-separated when piped; with ``--json`` one object per
    line, ``records`` (typed values) when given, else the row's cells by header."""
    if as_json:
        objects = (
            records if records is not None else [dict(zip(headers, r, strict=True)) for r in data]
        )
        for record in objects:
            say(json.dumps(record, ensure_ascii=False, default=str))
        return
    if not sys.stdout.isatty():
        for row in [headers, *data]:
            say("\t".join(cell.replace("\t", " ").replace("\n", " ") for cell in row))
        return
    table = Table(*headers)
    for row in data:
        table.add_row(*(Text(cell) for cell in row))
    Console(emoji=False, markup=False, highlight=False).print(table)


def dumped(value: Any) -> None:
    """A value as indented JSON (a report, a record)."""
    say(json.dumps(value, indent=2, ensure_ascii=False, default=str))
