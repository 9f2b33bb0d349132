"""The words of a keyword query that count, and the terms they match, in every store.

A question is mostly function words ("When did Caroline go to the support group?"): matched,
they make every fact that shares a "the" or a "did" a candidate and dilute the words that
matter. They are dropped from the *query*, never from the facts (FTS5 has no stop-word
option, and the facts' lengths stay what BM25 normalises by in every store). The list is
Snowball's English stop words, which MongoDB's ``$text`` also drops (so a word kept here
is one ``$text`` looks for), with the question words and modal verbs it lacks and the
pieces contractions split into ("don't" is "don" and "t" to FTS5). "may" is left in: it is
a month. A query made of stop words only ("who is it", "The Who") keeps every word: the
person asked about nothing else, and BM25's weights already make common words count little.

The remaining words match by their Porter stem (``stemming``): "attending" finds "attended".
Words with the same stem count once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from eden_memory.adapters.stores.stemming import porter_stem

# Snowball's English stop-word list (MongoDB's ``stop_words_english.txt``, 174 words).
_SNOWBALL = """
a about above after again against all am an and any are aren't as at be because been before
being below between both but by can't cannot could couldn't did didn't do does doesn't doing
don't down during each few for from further had hadn't has hasn't have haven't having he
he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've
if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of
off on once only or other ought our ours ourselves out over own same shan't she she'd
she'll she's should shouldn't so some such than that that's the their theirs them
themselves then there there's these they they'd they'll they're they've this those through
to too under until up very was wasn't we we'd we'll we're we've were weren't what what's
when when's where where's which while who who's whom why why's with won't would wouldn't
you you'd you'll you're you've your yours yourself yourselves
"""
# Question words and modals Snowball keeps, and what FTS5 cuts contractions into.
_MORE = """
whose can will shall might must also just s t d ll m re ve don doesn didn isn aren wasn
weren hasn haven hadn wouldn shouldn couldn mustn shan
"""
STOP_WORDS = frozenset(_SNOWBALL.split()) | frozenset(_MORE.split())


def is_stop_word(word: str) -> bool:
    return word.casefold().replace("’", "'") in STOP_WORDS


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
