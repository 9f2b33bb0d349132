"""The words of a keyword query that count, and the terms they match, in every store.

A question is mostly function words ("When did Caroline go to the support group?"): matched,
they make every fact that shares a "the" or a "did" a candidate and dilute the words that
matter. They are dropped from the *query*, never from the facts (FTS5 has no stop-word
option, and the facts' lengths stay what BM25 normalises by in every store). The list
(``domain/stop_words.py``) is Snowball's English stop words, which MongoDB's ``$text`` also
drops (so a word kept here is one ``$text`` looks for), and a few more. A query made of stop
words only ("who is it", "The Who") keeps every word: the person asked about nothing else,
and BM25's weights already make common words count little.

The remaining words match by their Porter stem (``stemming``): "attending" finds "attended".
Words with the same stem count once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from eden_memory.adapters.stores.stemming import porter_stem
from eden_memory.domain.stop_words import is_stop_word


def content_words(words: Iterable[str]) -> list[str]:
    """``words`` without stop words (all of them if nothing else is left), one per stem.

    The words keep their case and their order; the first word of each stem stands for it.
    Stems are of the lower-cased word, not the case-folded one: FTS5 keeps "ß", so
    "Straße" and "STRASSE" are two words to it.
    """
    words = list(words)
    kept = [word for word in words if not is_stop_word(word)] or words
    by_stem: dict[str, str] = {}
    for word in kept:
        by_stem.setdefault(porter_stem(word.lower()), word)
    return list(by_stem.values())


def query_terms(words: Iterable[str]) -> list[str]:
    """The stems a query of ``words`` looks for: its content words', lower-cased."""
    return [porter_stem(word.lower()) for word in content_words(words)]


def only_stop_words(words: Iterable[str]) -> bool:
    """Whether ``words`` (at least one) are stop words only, and so all kept."""
    words = list(words)
    return bool(words) and all(is_stop_word(word) for word in words)


_NAMING_WORD = re.compile(r"\w+")


def naming_terms(text: str) -> frozenset[str]:
    """The stems of the words of ``text`` that name something: a capitalised word after the
    first (a name) or a word holding a digit (a number, a code).

    Relevance reads a store that holds none of a question's names as holding nothing about
    what it asks ("What did Caroline research?" against another person's memory): such a
    word weighs like a word no fact holds. A plain word it lacks may be a matter of phrasing
    ("go" for "went"), or what the question is about ("job" in "the user's job title"): it
    weighs like an average word of the question (``ideal_weight``).
    """
    words = _NAMING_WORD.findall(text)
    return frozenset(
        porter_stem(word.lower())
        for i, word in enumerate(words)
        if (i > 0 and word[:1].isupper()) or any(c.isdigit() for c in word)
    )


def ideal_weight(held: list[float], names_absent: list[float], plain_absent: int) -> float:
    """What a fact holding every word of a question once would score: the weights (idfs) of
    the words the store holds, of the names it does not hold, and, for each other word it
    does not hold, the mean weight of the words it holds (``naming_terms``)."""
    mean = sum(held) / len(held) if held else 0.0
    return sum(held) + sum(names_absent) + plain_absent * mean
