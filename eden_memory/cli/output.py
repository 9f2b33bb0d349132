"""What the CLI prints: user data and errors verbatim, tables for people, JSON for scripts.

No rich markup or emoji codes are ever read from data (a fact ``:rocket: [bold]noon`` prints
as itself), and nothing is wrapped when the output is not a terminal: there a table becomes
tab-separated lines, and ``--json`` gives the rows as JSON Lines.

On a terminal nothing is cut either: a cell too long for its column folds onto the next line
instead of ending in "…", and the columns a person copies from (``WHOLE``: ids, owners) keep
each value on one line. A narrow terminal cannot give a 32-character id its own column and
leave room for the text beside it, so a table may ``stack`` the id above its fact's text.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Collection, Mapping, Sequence
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


WHOLE = frozenset({"id", "user", "owner", "scope"})  # what a person copies into a command
FOLDED = 6  # the least width left to a column that folds


def rows(
    headers: Sequence[str],
    data: Sequence[Sequence[str]],
    as_json: bool = False,
    records: Sequence[Mapping[str, Any]] | None = None,
    *,
    stack: tuple[str, str] | None = None,
) -> None:
    """A table: rich on a terminal, tab-separated when piped; with ``--json`` one object per
    line, ``records`` (typed values) when given, else the row's cells by header. ``stack``
    (upper, lower) shows, on a terminal only, each upper cell on its own line above the lower
    one, in one column."""
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
    console = Console(emoji=False, markup=False, highlight=False)
    console.print(table(headers, data, console.width, stack))


def table(
    headers: Sequence[str],
    data: Sequence[Sequence[str]],
    width: int,
    stack: tuple[str, str] | None = None,
    whole: Collection[str] = WHOLE,
) -> Table:
    """The rich table of ``rows`` for a terminal ``width`` columns wide."""
    columns = [[row[i] for row in data] for i in range(len(headers))]
    kept, titles = list(range(len(headers))), list(headers)
    first: int | None = None
    if stack is not None:
        upper, first = headers.index(stack[0]), headers.index(stack[1])
        pairs = zip(columns[upper], columns[first], strict=True)
        columns[first] = [f"{u}\n{c}" for u, c in pairs]
        titles[first] = f"{stack[0]} / {stack[1]}"
        kept.remove(upper)
    cells = [[titles[i], *columns[i]] for i in kept]
    keep = [kept.index(first)] if first is not None else []
    keep += [n for n, i in enumerate(kept) if headers[i] in whole]
    sizes = fitted(cells, keep, width - 3 * len(kept) - 1)
    drawn = Table()
    for n, i in enumerate(kept):
        one_line = headers[i] in whole and sizes is not None and sizes[n] >= _longest(cells[n])
        size = None if sizes is None else sizes[n]
        drawn.add_column(titles[i], overflow="fold", no_wrap=one_line, width=size)
    for r in range(len(data)):
        drawn.add_row(*(Text(columns[i][r]) for i in kept))
    return drawn


def fitted(cells: Sequence[Sequence[str]], keep: Sequence[int], room: int) -> list[int] | None:
    """Column widths within ``room`` (None: the table fits as it is). Each column starts at its
    longest word, ``FOLDED`` at most; the ``keep`` columns, in their order, get the width of
    their longest first line while the table still fits; the space left goes to the columns
    that want more, the least wanting first."""
    natural = [max(len(line) for cell in column for line in cell.split("\n")) for column in cells]
    if sum(natural) <= room:
        return None
    words = [max(len(word) for cell in column for word in cell.split()) for column in cells]
    sizes = [min(w, FOLDED) for w in words]
    for n in keep:
        first_lines = _longest(cells[n])
        if sum(sizes) - sizes[n] + first_lines <= room:
            sizes[n] = max(sizes[n], first_lines)
    left = room - sum(sizes)
    wanting = sorted(range(len(cells)), key=lambda n: natural[n] - sizes[n])
    for place, n in enumerate(wanting):
        share = max(left // (len(wanting) - place), 0)
        more = min(natural[n] - sizes[n], share)
        sizes[n], left = sizes[n] + more, left - more
    return sizes


def _longest(column: Sequence[str]) -> int:
    return max((len(cell.split("\n", 1)[0]) for cell in column[1:]), default=0)


def notes(lines: Sequence[str]) -> None:
    """Lines about the output just printed: wrapped to the terminal beneath a table, on
    standard error when piped (so tab-separated rows stay rows)."""
    if not sys.stdout.isatty():
        for line in lines:
            complain(line)
        return
    width = Console().width
    for line in lines:
        say(textwrap.fill(line, width=width, subsequent_indent="  ", break_long_words=False))


def dumped(value: Any) -> None:
    """A value as indented JSON (a report, a record)."""
    say(json.dumps(value, indent=2, ensure_ascii=False, default=str))
