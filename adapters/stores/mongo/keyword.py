"""Keyword ranking without Atlas Search: BM25 over the visible candidates, fuzzy like Atlas.

Terms are analysed as Atlas's ``lucene.english`` analyser does it: words split like
``lucene.standard`` (lower-cased, punctuation dropped, apostrophes kept inside a word), a
final possessive "'s" dropped, each word cut to its Porter stem (``stemming``, the embedded
store's stems). The query's stop words are left out (``text_terms``, as in every store).
A query term matches a document term exactly or, as Atlas's ``fuzzy: {maxEdits: 1}`` does,
at one edit (insert, delete, substitute, swap) for terms of four or more characters,
discounted like a Lucene fuzzy expansion (``1 - 1 / shorter length``).

Calibration. Inverse document frequency is smoothed with a prior of ``BACKGROUND``
documents that contain none of the terms: a user's first few facts rank a distinctive word
the way a large store does, instead of scoring near zero because the corpus is tiny. With
the threshold 1.5 (``FALLBACK_TEXT_THRESHOLD``), one exact occurrence of a query term in a
fact of average length clears the floor while the term occurs in at most about 22% of the
visible facts; a word in every fact of a large store never does. Stemming makes the
frequencies those of stems ("group" and "groups" are one term); the reasoning holds.

Atlas Search has no such prior: Lucene's idf of a word in one of N documents,
ln(1 + (N - 0.5) / 1.5), is under the floor below 6 documents in the collection. Its scores
are lifted in a collection of under 30 documents (``small_collection_lift``) so that such a
word scores twice the floor at average length, as it does from 30 documents up.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from eden_memory.adapters.stores.stemming import porter_stem
from eden_memory.adapters.stores.text_terms import (
    content_words,
    ideal_weight,
    naming_terms,
    query_terms,
)
from eden_memory.domain.idf import bm25_idf

K1 = 1.2
B = 0.75
BACKGROUND = 100
FUZZY_MIN_LENGTH = 4
FALLBACK_TEXT_THRESHOLD = 1.5
# What a word found in one document of average length scores on Atlas, as a multiple of the
# floor, from 30 documents up (Lucene's idf of it reaches 3.0 there).
UNIQUE_WORD_SCORE = 2.0
_TOKEN = re.compile(r"\w+(?:['’]\w+)*")
_POSSESSIVE = re.compile(r"['’]s$")


def tokens(text: str) -> list[str]:
    """Words as ``lucene.standard`` splits them, lower-cased, possessives dropped."""
    found = _TOKEN.findall(unicodedata.normalize("NFKC", text))
    return [_POSSESSIVE.sub("", t.casefold()) for t in found]


def terms(text: str) -> list[str]:
    """The Porter stems of ``text``'s words, as ``lucene.english`` indexes them."""
    return [porter_stem(token) for token in tokens(text)]


def query_words(text: str) -> list[str]:
    """The words of a query that count (no stop words), lower-cased, one per stem."""
    return content_words(tokens(text))


def atlas_query(text: str) -> str:
    """What Atlas Search is asked: the query's words that count, as every store asks.

    ``lucene.english`` stems them and drops its own (shorter) stop-word list. Empty when
    the text has no word at all.
    """
    return " ".join(query_words(text))


def small_collection_lift(documents: int, threshold: float) -> float:
    """The factor Atlas's scores are multiplied by in a collection of ``documents``: 1 from
    30 up (at the default floor); below, enough for a word in one document to clear it."""
    idf_of_one = math.log(1 + (max(documents, 1) - 0.5) / 1.5)
    return max(1.0, UNIQUE_WORD_SCORE * threshold / idf_of_one)


def one_edit_apart(a: str, b: str) -> bool:
    """Optimal string alignment distance exactly one (Lucene's fuzzy counts a swap as one)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        if len(diff) != 2:
            return False
        i, j = diff
        return j == i + 1 and a[i] == b[j] and a[j] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def match_weight(query_term: str, term: str) -> float:
    if query_term == term:
        return 1.0
    shorter = min(len(query_term), len(term))
    if shorter >= FUZZY_MIN_LENGTH and one_edit_apart(query_term, term):
        return 1.0 - 1.0 / shorter
    return 0.0


def bm25(
    query: str, documents: Sequence[tuple[str, str]], total: int | None = None
) -> list[tuple[str, float]]:
    """``bm25_with_ideal`` without the ideal."""
    return bm25_with_ideal(query, documents, total)[0]


def bm25_with_ideal(
    query: str, documents: Sequence[tuple[str, str]], total: int | None = None
) -> tuple[list[tuple[str, float]], float]:
    """(id, score) of the documents matching ``query``, best first (ties by id), and what a
    document of average length holding each query term once would score (a term no document
    holds weighing as ``ideal_weight`` says): a score over it is the
    share of the query's keyword weight a document holds (``domain.relevance``).

    ``total`` is the size of the corpus when ``documents`` are only the ones that hold a
    query term (a ``$text`` pre-selection); document frequencies are the same either way.
    """
    wanted = query_terms(tokens(query))
    if not wanted or not documents:
        return [], 0.0
    bags = [(doc_id, Counter(terms(text))) for doc_id, text in documents]
    vocabulary = {term for _, bag in bags for term in bag}
    weights = {q: {t: w for t in vocabulary if (w := match_weight(q, t)) > 0} for q in wanted}
    lengths = [sum(bag.values()) for _, bag in bags]
    average = (sum(lengths) / len(lengths)) or 1.0
    total = max(total or 0, len(bags))
    scores: dict[str, float] = {}
    names = naming_terms(query)
    held: list[float] = []
    names_absent: list[float] = []
    plain_absent = 0
    for term, near in weights.items():
        frequencies = [sum(bag[t] * w for t, w in near.items() if t in bag) for _, bag in bags]
        found = sum(1 for f in frequencies if f > 0)
        idf = bm25_idf(total + BACKGROUND, found)
        if found:
            held.append(idf)
        elif term in names:
            names_absent.append(idf)
        else:
            plain_absent += 1
        for (doc_id, _), tf, length in zip(bags, frequencies, lengths, strict=True):
            if tf > 0:
                norm = K1 * (1 - B + B * length / average)
                scores[doc_id] = scores.get(doc_id, 0.0) + idf * tf * (K1 + 1) / (tf + norm)
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return ranked, ideal_weight(held, names_absent, plain_absent)
