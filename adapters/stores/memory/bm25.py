"""BM25 over whatever candidates the caller already filtered (cosine is ``domain.vectors``)."""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping

from eden_memory.adapters.stores.stemming import porter_stem
from eden_memory.adapters.stores.text_terms import query_terms

_WORD = re.compile(r"\w+")

K1 = 1.2
B = 0.75


def words(text: str) -> list[str]:
    """Lowercase Unicode word tokens, as written."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def terms(text: str) -> list[str]:
    """The Porter stems of ``text``'s words, as the embedded store's index holds them."""
    return [porter_stem(word) for word in words(text)]


def bm25(query: str, documents: Mapping[str, str]) -> dict[str, float]:
    """BM25 (k1 = 1.2, b = 0.75, Lucene's always-positive idf) of each document matching a term.

    Terms are stems, and the query's stop words are left out (``text_terms``), as in the
    other stores. Documents with no query term are left out, so every score returned is
    positive.
    """
    wanted = set(query_terms(words(query)))
    if not wanted or not documents:
        return {}
    tokens = {doc_id: terms(text) for doc_id, text in documents.items()}
    average = sum(len(t) for t in tokens.values()) / len(tokens) or 1.0
    frequency = Counter(term for t in tokens.values() for term in set(t) & wanted)
    idf = {term: _idf(len(tokens), n) for term, n in frequency.items()}
    scores: dict[str, float] = {}
    for doc_id, doc_tokens in tokens.items():
        counts = Counter(doc_tokens)
        norm = K1 * (1 - B + B * len(doc_tokens) / average)
        score = sum(
            weight * counts[term] * (K1 + 1) / (counts[term] + norm)
            for term, weight in idf.items()
            if counts[term]
        )
        if score > 0:
            scores[doc_id] = score
    return scores


def _idf(documents: int, containing: int) -> float:
    return math.log(1 + (documents - containing + 0.5) / (containing + 0.5))
