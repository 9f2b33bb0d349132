"""Version 1: the layout of a new store file, as SQL.

``create`` makes it in a new file; later versions change it through their own modules,
never by editing this text (a file made by an older release must still upgrade step by step).
"""

from __future__ import annotations

import sqlite3

from eden_memory.adapters.stores.sqlite.migrations.script import run_script

# Every table keys its owner as (agent_id, scope, owner): owner is the user id of a user
# key, the session id of a session key, '' for an agent key. '' rather than NULL, because
# NULLs never collide in a unique index and the exact-duplicate rule needs them to.
CREATE_V1 = """
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO counters VALUES ('fact_seq', 0);
-- Tombstones older than this stamp were pruned: an index synced before it reloads.
INSERT INTO counters VALUES ('tombstone_floor', 0);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE scope_state (
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0,  -- any change to the key's memory
    fact_seq INTEGER NOT NULL DEFAULT 0,  -- the last change to its facts (vector index sync)
    PRIMARY KEY (agent_id, scope, owner)
) WITHOUT ROWID;

CREATE TABLE facts (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL,
    status TEXT NOT NULL,
    content TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    formed_us INTEGER NOT NULL,
    version INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    access_count INTEGER NOT NULL,
    last_accessed_us INTEGER,
    vec_model TEXT NOT NULL, vec_dim INTEGER NOT NULL, vector BLOB NOT NULL,
    doc TEXT NOT NULL
);
CREATE UNIQUE INDEX facts_active_hash
    ON facts (agent_id, scope, owner, content_hash) WHERE status = 'active';
CREATE INDEX facts_partition_seq ON facts (agent_id, scope, owner, seq);
CREATE INDEX facts_agent_formed ON facts (agent_id, formed_us);
CREATE INDEX facts_recent ON facts (agent_id, scope, owner, formed_us) WHERE status = 'active';
CREATE TABLE fact_tombstones (
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL,
    seq INTEGER NOT NULL, fact_id TEXT NOT NULL
);
CREATE INDEX fact_tombstones_partition ON fact_tombstones (agent_id, scope, owner, seq);
CREATE INDEX fact_tombstones_seq ON fact_tombstones (seq);

-- Keyword index of the active facts, kept in step by triggers.
CREATE VIRTUAL TABLE facts_fts USING fts5(
    content, content = 'facts', content_rowid = 'pk',
    tokenize = 'unicode61 remove_diacritics 2'
);
-- How many facts hold each word: lets keyword search skip words that weigh nothing.
CREATE VIRTUAL TABLE facts_vocab USING fts5vocab(facts_fts, row);
CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts WHEN new.status = 'active' BEGIN
    INSERT INTO facts_fts (rowid, content) VALUES (new.pk, new.content);
END;
CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts WHEN old.status = 'active' BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, content) VALUES ('delete', old.pk, old.content);
END;
CREATE TRIGGER facts_fts_unindex AFTER UPDATE OF content, status ON facts
WHEN old.status = 'active' BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, content) VALUES ('delete', old.pk, old.content);
END;
CREATE TRIGGER facts_fts_reindex AFTER UPDATE OF content, status ON facts
WHEN new.status = 'active' BEGIN
    INSERT INTO facts_fts (rowid, content) VALUES (new.pk, new.content);
END;

CREATE TABLE reflections (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL,
    absorbed INTEGER NOT NULL,
    formed_us INTEGER NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX reflections_key ON reflections (agent_id, scope, owner, absorbed, formed_us);

CREATE TABLE consolidated (
    agent_id TEXT NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL,
    version INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (agent_id, scope, owner)
) WITHOUT ROWID;

CREATE TABLE sessions (
    agent_id TEXT NOT NULL, session_id TEXT NOT NULL,
    profile TEXT NOT NULL,
    pending_messages INTEGER NOT NULL DEFAULT 0,
    pending_tokens REAL NOT NULL DEFAULT 0,
    last_activity_us INTEGER, last_formed_us INTEGER, ended_us INTEGER,
    claim_id TEXT, claim_expires_us INTEGER,
    PRIMARY KEY (agent_id, session_id)
) WITHOUT ROWID;
CREATE INDEX sessions_idle ON sessions (last_activity_us);
CREATE TABLE session_users (
    agent_id TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
    PRIMARY KEY (agent_id, user_id, session_id),
    FOREIGN KEY (agent_id, session_id) REFERENCES sessions ON DELETE CASCADE
) WITHOUT ROWID;
CREATE TABLE messages (
    pk INTEGER PRIMARY KEY,
    agent_id TEXT NOT NULL, session_id TEXT NOT NULL, message_id TEXT NOT NULL,
    author_id TEXT,
    sent_us INTEGER NOT NULL,
    weighted_tokens REAL NOT NULL,
    formed INTEGER NOT NULL DEFAULT 0,
    claim_id TEXT,
    doc TEXT NOT NULL,
    UNIQUE (agent_id, session_id, message_id),
    FOREIGN KEY (agent_id, session_id) REFERENCES sessions ON DELETE CASCADE
);
CREATE INDEX messages_pending ON messages (agent_id, session_id, formed, sent_us, pk);
CREATE INDEX messages_author ON messages (agent_id, author_id);
"""


def create(conn: sqlite3.Connection) -> None:
    run_script(conn, CREATE_V1)
