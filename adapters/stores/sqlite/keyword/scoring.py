"""Keyword ranking: FTS5 with BM25, over the visible active facts only.

Any user text becomes a safe FTS5 query: it is cut into words, stop words are left out
(``text_terms``: "when", "did", "the"...), and each remaining word is quoted, so quotes,
``AND``/``OR``/``NOT``/``NEAR``, ``*``, ``^``, ``:`` or parentheses are never read as
syntax. Words are OR-ed: a fact that shares one rare word with the question is a match,
and BM25 ranks facts sharing more (and rarer) words first. The index's tokenizer (schema
version 5: ``porter unicode61 remove_diacritics 2``) folds case and accents and cuts each
word, in the facts and in the query alike, to its Porter stem: "attending" finds
"attended", "groups" finds "group".

SQLite's ``bm25()`` is lower-is-better and negative; the score returned is its negation,
so larger is better. Its IDF is clamped to ~0 for a word in more than half of the indexed
facts, so a match on common words only scores near zero. The index holds the active facts
of every agent and user, and its statistics are theirs (N and the average length are of all
indexed facts); a search reads only the entries of the visible partitions, one rowid range
each (schema version 10, ``keyword_partitions``), so its cost follows the visible matches.
In a store of under 12 facts scores are lifted (``small_store_lift``), so a word found in
one fact still clears the floor there.
"""

from __future__ import annotations

import math
import re
import sqlite3
import unicodedata

from eden_memory.adapters.stores.sqlite.codec import placeholders
from eden_memory.adapters.stores.sqlite.decoding import decoding
from eden_memory.adapters.stores.sqlite.keyword.partitions import (
    PK_MASK,
)
from eden_memory.adapters.stores.stemming import porter_stem
from eden_memory.adapters.stores.text_terms import content_words, ideal_weight, naming_terms
from eden_memory.domain.idf import fts5_idf

# Calibration. Facts are short, so a query term occurs once in a fact and contributes
# idf * f(length), with f = 1 at the average length (0.7 at twice it, 1.26 at half), and
# FTS5's idf = ln((N - n + 0.5) / (n + 0.5)) for a term in n of the N indexed facts.
# At 1.0 a one-term match counts while that term is in fewer than ~27% of the facts (one in
# four facts is no longer discriminative: a name every fact mentions), from a store of 5
# facts up; rare words (names, emails, ids: idf 3-8 in a real store) and matches on two or
# more fair terms clear it easily. Lower values let single common-term matches through, and
# a lone keyword hit at rank 1 already passes the RRF floor (1/61 > 0.015); higher ones
# start dropping single rare-word matches in stores of under ~10 facts. A term is a stem
# (schema version 5): "group" and "groups" count as one term, so n counts the facts holding
# any form of it, and the share above is a share of stems; stop words no longer reach the
# query, and the floor's reasoning is otherwise unchanged (re-measured on LoCoMo: the
# "Search" section of docs/record/decisions/search.md).
TEXT_SCORE_THRESHOLD = 1.0
MAX_QUERY_TOKENS = 32
# What a word found in one fact of average length scores from SMALL_STORE_FACTS facts up,
# as a multiple of the floor: FTS5's idf of such a word, ln((N - 0.5) / 1.5), reaches 2.0
# at 12 facts. Below, it falls (0.51 at 3 facts, 0 at 2), so the floor that keeps common
# words out of a real store would hide the one fact holding a distinctive word (the first
# facts a user stores). ``small_store_lift`` scales scores back up to this.
UNIQUE_WORD_SCORE = 2.0
SMALL_STORE_FACTS = 12
# From this many indexed facts on, words in half of them or more are left out of the query:
# FTS5 clamps their IDF to ~0, so they add nothing to any score, yet matching them makes
# SQLite score (and join) most of the index: ~200 ms instead of ~6 ms at 100k facts. A
# query made only of such words then matches nothing. Smaller stores keep every word, so
# even a one-fact store answers a query that matches it.
PRUNE_FROM_FACTS = 1000
_WORD = re.compile(r"\w+")


def query_words(text: str) -> list[str]:
    """The words of ``text`` that count, one per stem (the tokenizer folds case and accents)."""
    return content_words(_WORD.findall(text))[:MAX_QUERY_TOKENS]


def index_term(word: str) -> str:
    """``word`` as the index holds it: lower case, accents removed, Porter-stemmed.

    Close to the tokenizer, not exact (its case folding is not Python's); it only decides
    which words ``informative`` looks up.
    """
    decomposed = unicodedata.normalize("NFD", word.lower())
    return porter_stem("".join(c for c in decomposed if not unicodedata.combining(c)))


def fts_query(words: list[str]) -> str | None:
    """An FTS5 expression matching any of ``words``, each quoted; None when there is none."""
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


def small_store_lift(indexed: int) -> float:
    """The factor scores of an index of ``indexed`` facts are multiplied by: 1 from 12 facts.

    Below, a word in one fact of average length scores ``UNIQUE_WORD_SCORE`` times the floor,
    as it does in a store of 12 facts, while a word in half the facts or more still scores
    ~0 (FTS5 clamps its idf to 1e-6): the floor keeps its meaning, with fewer facts to judge
    by. With 2 facts or fewer every idf is clamped, so every match counts.
    """
    wanted = UNIQUE_WORD_SCORE * TEXT_SCORE_THRESHOLD
    return max(1.0, wanted / fts5_idf(indexed, 1))


def informative(conn: sqlite3.Connection, words: list[str], indexed: int) -> list[str]:
    """``words`` without those whose stem is in half or more of the ``indexed`` facts.

    Large indexes only; the vocabulary lists stems, so each word is looked up by its own.
    """
    if indexed < PRUNE_FROM_FACTS or not words:
        return words
    folded = {word: index_term(word) for word in words}
    rows = conn.execute(
        f"SELECT term, doc FROM facts_vocab WHERE term IN ({placeholders(len(words))})",
        list(folded.values()),
    )
    common = {term for term, docs in rows if 2 * docs >= indexed}
    return [word for word in words if folded[word] not in common]


def ideal_score(conn: sqlite3.Connection, text: str, words: list[str], indexed: int) -> float:
    """What a fact of average length holding each of ``words`` once scores: the sum of their
    idfs, FTS5's way, a word the index does not hold weighing as ``ideal_weight`` says. A
    hit's score over it is its ``coverage`` (``domain.relevance``)."""
    if not words or indexed <= 0:
        return 0.0
    terms = [index_term(word) for word in words]
    unique = sorted(set(terms))
    rows = conn.execute(
        f"SELECT term, doc FROM facts_vocab WHERE term IN ({placeholders(len(unique))})", unique
    )
    held = {str(term): int(docs) for term, docs in rows}
    names = naming_terms(text)
    return ideal_weight(
        [fts5_idf(indexed, held[t]) for t in terms if t in held],
        [fts5_idf(indexed, 0) for t in terms if t not in held and t in names],
        sum(1 for t in terms if t not in held and t not in names),
    )


def sound_score(value: object) -> float:
    """FTS5's score of a match as a finite number, 0 or more. Its bm25() takes the log of a
    negative number when its own counts disagree (a word in more facts than it counts: a
    write before issue 40's fix), and SQLite reads the NaN back as NULL."""
    score = float(value) if isinstance(value, int | float) else 0.0
    return score if math.isfinite(score) and score > 0 else 0.0


def coverage(score: float, ideal: float) -> float | None:
    """The share of the question's keyword weight a hit holds, at most 1."""
    return None if ideal <= 0 else min(1.0, score / ideal)


def indexed_facts(conn: sqlite3.Connection) -> int:
    """How many facts the index holds, read from FTS5's own running total.

    FTS5 keeps it in its "averages" record (row 1 of ``facts_fts_data``: the row count as a
    varint, then the token total of each column) and moves it with every insert and delete,
    as part of the writing transaction. Counting ``facts_fts_docsize`` instead read one
    entry per indexed fact on every query: 9x slower at 100k facts than at 10k.
    """
    row = conn.execute("SELECT block FROM facts_fts_data WHERE id = 1").fetchone()
    if row is None or not row[0]:
        return 0
    with decoding("facts_fts_data", 1):  # a damaged block may be text, or cut short
        if not isinstance(row[0], bytes):
            raise TypeError("FTS5's averages record is not a blob")
        return first_varint(row[0])


def first_varint(data: bytes) -> int:
    """SQLite's big-endian varint at the start of ``data`` (7 bits a byte, 9 bytes at most)."""
    value = 0
    for position, byte in enumerate(data[:9]):
        if position == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    raise ValueError("a truncated varint")


# One range's best ``limit`` (ties to the newer fact, the larger pk, as everywhere), in C.
_IN_RANGE = (
    "SELECT * FROM (SELECT rowid AS r, -bm25(facts_fts) AS score FROM facts_fts "
    f"WHERE facts_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY score DESC, r & {PK_MASK} DESC "
    "LIMIT ?)"
)


def ranked_sql(query: str, ranges: list[tuple[int, int]], limit: int) -> tuple[str, list[object]]:
    """The best ``limit`` matches of ``query`` in the rowid ``ranges``, with their fact ids.

    FTS5 seeks each word's entries to the start of a range and stops at its end, so only the
    visible partitions' matches are read and scored; the ranges' lists are merged.
    """
    sql = (
        f"SELECT f.id, m.score FROM ({' UNION ALL '.join([_IN_RANGE] * len(ranges))}) m "
        f"JOIN facts f ON f.pk = m.r & {PK_MASK} ORDER BY m.score DESC, f.pk DESC LIMIT ?"
    )
    params: list[object] = [v for low, high in ranges for v in (query, low, high, limit)]
    return sql, [*params, limit]
