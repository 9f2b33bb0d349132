"""BM25 over the postings of the partitions a request may see (cosine is ``domain.vectors``).

Each (agent, scope, user) partition keeps its active facts' stems (``Postings``), updated as
facts change, so a search reads the visible partitions' postings and scores only the facts
holding a query term: its cost follows the visible matches, not the store. The statistics
(N, the average length, each term's document count) are those of the visible facts, as when
every visible fact was tokenised on each query; scores are unchanged.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from eden_memory.adapters.stores.stemming import porter_stem
from eden_memory.adapters.stores.text_terms import ideal_weight, naming_terms, query_terms
from eden_memory.domain.idf import bm25_idf

_WORD = re.compile(r"\w+")

K1 = 1.2
B = 0.75


def words(text: str) -> list[str]:
    """Lowercase Unicode word tokens, as written."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def terms(text: str) -> list[str]:
    """The Porter stems of ``text``'s words, as the embedded store's index holds them."""
    return [porter_stem(word) for word in words(text)]


@dataclass
class Postings:
    """One partition's active facts as BM25 sees them: stem counts, lengths, holders."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    lengths: dict[str, int] = field(default_factory=dict)
    total: int = 0  # the sum of ``lengths``
    holders: dict[str, set[str]] = field(default_factory=dict)  # stem: facts holding it

    def add(self, doc_id: str, text: str) -> None:
        self.remove(doc_id)
        tokens = terms(text)
        self.counts[doc_id] = Counter(tokens)
        self.lengths[doc_id] = len(tokens)
        self.total += len(tokens)
        for term in self.counts[doc_id]:
            self.holders.setdefault(term, set()).add(doc_id)

    def remove(self, doc_id: str) -> None:
        counts = self.counts.pop(doc_id, None)
        if counts is None:
            return
        self.total -= self.lengths.pop(doc_id)
        for term in counts:
            holding = self.holders[term]
            holding.discard(doc_id)
            if not holding:
                del self.holders[term]


def bm25(query: str, documents: Mapping[str, str]) -> dict[str, float]:
    """``bm25_over`` the postings of ``documents`` (document id: text)."""
    postings = Postings()
    for doc_id, text in documents.items():
        postings.add(doc_id, text)
    return bm25_over(query, [postings])


def bm25_over(query: str, parts: Sequence[Postings]) -> dict[str, float]:
    """``bm25_with_ideal`` without the ideal."""
    return bm25_with_ideal(query, parts)[0]


def bm25_with_ideal(query: str, parts: Sequence[Postings]) -> tuple[dict[str, float], float]:
    """BM25 (k1 = 1.2, b = 0.75, Lucene's always-positive idf) of each document of ``parts``
    matching a term, with the statistics of all of ``parts``' documents.

    Terms are stems, and the query's stop words are left out (``text_terms``), as in the
    other stores. Documents with no query term are left out, so every score returned is
    positive. The ideal is what a document of average length holding every term once scores
    (a term no document holds weighing as ``ideal_weight`` says): a score
    over it is the share of the query's keyword weight a document holds
    (``domain.relevance``).
    """
    wanted = sorted(set(query_terms(words(query))))
    documents = sum(len(p.lengths) for p in parts)
    if not wanted or not documents:
        return {}, 0.0
    average = sum(p.total for p in parts) / documents or 1.0
    held = {t: sum(len(p.holders.get(t, ())) for p in parts) for t in wanted}
    idf = {t: bm25_idf(documents, n) for t, n in held.items() if n}
    scores: dict[str, float] = {}
    for part in parts:
        matching: set[str] = set()
        for term in idf:
            matching |= part.holders.get(term, set())
        for doc_id in matching:
            counts = part.counts[doc_id]
            norm = K1 * (1 - B + B * part.lengths[doc_id] / average)
            score = sum(
                weight * counts[term] * (K1 + 1) / (counts[term] + norm)
                for term, weight in idf.items()
                if counts[term]
            )
            if score > 0:
                scores[doc_id] = score
    names = naming_terms(query)
    return scores, ideal_weight(
        [bm25_idf(documents, held[t]) for t in wanted if held[t]],
        [bm25_idf(documents, 0) for t in wanted if not held[t] and t in names],
        sum(1 for t in wanted if not held[t] and t not in names),
    )
