"""A script of SQL statements run one by one, inside the caller's transaction.

``executescript`` would COMMIT the open transaction; an upgrade runs in one.
"""

from __future__ import annotations

import sqlite3


def run_script(conn: sqlite3.Connection, script: str) -> None:
    for statement in statements(script):
        conn.execute(statement)


def statements(script: str) -> list[str]:
    out: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        if not pending and (not line.strip() or line.lstrip().startswith("--")):
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            out.append(pending.strip())
            pending = ""
    return out
