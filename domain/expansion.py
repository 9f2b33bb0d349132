"""Query expansion: which of the queries a model proposed a search takes.

A search takes at most ``max_queries``; a model that adds queries fills the places the
caller left. What it proposes is text from outside: kept only when it is a usable query
(not blank, not over the length a caller may send) and says something the given queries
and the ones kept before it do not already say word for word.
"""

from __future__ import annotations

from collections.abc import Sequence


def _same(text: str) -> str:
    return " ".join(text.casefold().split())


def added_queries(
    given: Sequence[str], proposed: Sequence[str], wanted: int, max_chars: int
) -> list[str]:
    """At most ``wanted`` of ``proposed``, in their order: stripped, none blank, none longer
    than ``max_chars``, none a repeat (case and spacing aside) of a query already there."""
    seen = {_same(q) for q in given}
    kept: list[str] = []
    for query in proposed:
        text = query.strip()
        key = _same(text)
        if len(kept) >= wanted or not text or len(text) > max_chars or key in seen:
            continue
        seen.add(key)
        kept.append(text)
    return kept
