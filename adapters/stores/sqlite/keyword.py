"""Keyword ranking: FTS5 with BM25, over the visible active facts only.

Any user text becomes a safe FTS5 query: it is cut into the word tokens the ``unicode61``
tokenizer would see, and each token is quoted, so quotes, ``AND``/``OR``/``NOT``/``NEAR``,
``*``, ``^``, ``:`` or parentheses are never read as syntax. Tokens are OR-ed: a fact that
shares one rare word with the question is a match, and BM25 ranks facts sharing more (and
rarer) words first.

SQLite's ``bm25()`` is lower-is-better and negative; the score returned is its negation,
so larger is better. Its IDF is clamped to ~0 for a word in more than half of the indexed
facts, so a match on common words only scores near zero. The index holds the active facts
of every agent and user (visibility filters the matches, not the statistics).
"""

from __future__ import annotations

import re
import sqlite3

from eden_memory.adapters.stores.sqlite.codec import KeyCols, placeholders
from eden_memory.adapters.stores.sqlite.connection import transaction
from eden_memory.adapters.stores.sqlite.fact_reads import partition_filter, visible_partitions
from eden_memory.adapters.stores.sqlite.revisions import fact_seqs
from eden_memory.domain.ids import FactId
from eden_memory.domain.scopes import FactVisibility
from eden_memory.ports.stores import RankedFact

# Calibration. Facts are short, so a query word occurs once in a fact and contributes
# idf * f(length), with f = 1 at the average length (0.7 at twice it, 1.26 at half), and
# FTS5's idf = ln((N - n + 0.5) / (n + 0.5)) for a word in n of the N indexed facts.
# At 1.0 a one-word match counts while that word is in fewer than ~27% of the facts (one in
# four facts is no longer discriminative: "is", "the", a name every fact mentions), from a
# store of 5 facts up; rare words (names, emails, ids: idf 3-8 in a real store) and matches
# on two or more fair words clear it easily. Lower values let single common-word matches
# through, and a lone keyword hit at rank 1 already passes the RRF floor (1/61 > 0.015);
# higher ones start dropping single rare-word matches in stores of under ~10 facts.
TEXT_SCORE_THRESHOLD = 1.0
MAX_QUERY_TOKENS = 32
# From this many indexed facts on, words in half of them or more are left out of the query:
# FTS5 clamps their IDF to ~0, so they add nothing to any score, yet matching them makes
# SQLite score (and join) most of the index: ~200 ms instead of ~6 ms at 100k facts. A
# query made only of such words then matches nothing. Smaller stores keep every word, so
# even a one-fact store answers a query that matches it.
PRUNE_FROM_FACTS = 1000
_WORD = re.compile(r"\w+")


def query_words(text: str) -> list[str]:
    """The words of ``text`` as the tokenizer cuts them (it folds case and accents itself)."""
    return list(dict.fromkeys(_WORD.findall(text)))[:MAX_QUERY_TOKENS]


def fts_query(words: list[str]) -> str | None:
    """An FTS5 expression matching any of ``words``, each quoted; None when there is none."""
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


def informative(conn: sqlite3.Connection, words: list[str]) -> list[str]:
    """``words`` without those in half or more of the indexed facts (large indexes only)."""
    (indexed,) = conn.execute("SELECT COUNT(*) FROM facts_fts_docsize").fetchone()
    if indexed < PRUNE_FROM_FACTS or not words:
        return words
    folded = {word: word.lower() for word in words}
    rows = conn.execute(
        f"SELECT term, doc FROM facts_vocab WHERE term IN ({placeholders(len(words))})",
        list(folded.values()),
    )
    common = {term for term, docs in rows if 2 * docs >= indexed}
    return [word for word in words if folded[word] not in common]


def sees_every_fact(conn: sqlite3.Connection, parts: list[KeyCols]) -> bool:
    """Whether ``parts`` are all the partitions that have ever held facts.

    Then every fact in the keyword index is visible, and the filter, which reads the key
    columns of every match (a third of the query's time), can be left out. This is the
    usual embedded store: one agent, one user. ``revisions`` keeps the count exact or over,
    never under, so a store with anyone else's facts always takes the filtered path.
    """
    row = conn.execute("SELECT value FROM counters WHERE name = 'fact_partitions'").fetchone()
    held = sum(1 for seq in fact_seqs(conn, parts).values() if seq > 0)
    return row is not None and int(row[0]) == held


def keyword_ranking(
    conn: sqlite3.Connection, text: str, visibility: FactVisibility, limit: int
) -> list[RankedFact]:
    parts = visible_partitions(visibility)
    if not parts or limit <= 0:
        return []
    with transaction(conn, write=False):  # the check and the query see one snapshot
        query = fts_query(informative(conn, query_words(text)))
        if query is None:
            return []
        if sees_every_fact(conn, parts):
            sql = (
                "SELECT f.id, m.score FROM (SELECT rowid AS pk, -bm25(facts_fts) AS score "
                "FROM facts_fts WHERE facts_fts MATCH ? ORDER BY score DESC, pk DESC LIMIT ?"
                ") m JOIN facts f ON f.pk = m.pk ORDER BY m.score DESC, m.pk DESC"
            )
            params: list[object] = [query, limit]
        else:
            # The index holds active facts only (its triggers drop a fact when it is
            # retired): the join reads just the key columns of each match, to filter.
            where, keys = partition_filter(parts, "f")
            sql = (
                "SELECT f.id, -bm25(facts_fts) AS score "
                "FROM facts_fts JOIN facts f ON f.pk = facts_fts.rowid "
                f"WHERE facts_fts MATCH ? AND {where} "
                "ORDER BY score DESC, f.pk DESC LIMIT ?"
            )
            params = [query, *keys, limit]
        try:
            rows = conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if "fts5" in str(exc).lower() or "syntax" in str(exc).lower():
                return []  # a query the sanitiser let through must not fail a search
            raise
    return [RankedFact(FactId(fact_id), float(score)) for fact_id, score in rows]
