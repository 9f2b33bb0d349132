"""Version 13: messages stamped with the users present; the layout is unchanged."""

from __future__ import annotations

import sqlite3


def upgrade(conn: sqlite3.Connection) -> None:
    """Version 13 stamps each message, in its document, with the users present when it was
    recorded (``Message.present``), and files a user's words with no author under that user
    when they were alone (the ``author_id`` column). Nothing is rewritten: a message recorded
    before has no stamp and is credited as it was then (the session's users at formation).
    The version is what changes: a previous release, which refuses a document with a field
    it does not know, refuses the file as a newer one instead of failing on its messages."""
    del conn
