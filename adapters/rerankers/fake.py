"""A reranker for tests and demos: the share of a query's words a passage holds."""

from __future__ import annotations

import re
from collections.abc import Sequence

WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


class WordOverlapReranker:
    """Deterministic and instant: a passage scores the largest share of any query's words
    it contains. ``calls`` records what it was asked, for tests."""

    name = "word-overlap"

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], list[str]]] = []

    async def scores(self, queries: Sequence[str], passages: Sequence[str]) -> list[float]:
        self.calls.append((list(queries), list(passages)))
        asked = [_words(q) for q in queries]
        out = []
        for passage in passages:
            held = _words(passage)
            out.append(max((len(q & held) / len(q) if q else 0.0) for q in asked))
        return out
