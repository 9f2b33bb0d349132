"""Two facts that give the same attribute of the same subject different values: an update.

"Maya lives in Portland" and, later, "Maya moved to Seattle" are one thing said twice, the
second time changed; the host gave no key to say so. No cosine tells such a pair from two
facts of the same kind ("my sister Anna is a nurse" / "my friend Anna is a teacher",
``benchmarks/freshness.py``), so the judgement reads the words:

* the **subject**: the names (capitalised words), the relations ("sister", "landlord") and
  the first person ("I", "my") said before the attribute; both facts must have the same,
  not empty;
* the **attribute**: the family of its predicate (the first word after the subject, words of
  change passed over), from a table of things a subject has one of at a time (``FAMILIES``:
  where one lives, one's phone, one's job, a price, a date...), read as written ("works at"
  names a job, "working on" does not); both facts must name one family, or one names none,
  says it switched (``SWITCH``: "left Figma") and shares a value with the other;
* the **values**: the other words; each fact must hold one the other lacks (a restatement
  or an elaboration is not a change).

Only facts of one owner (scope key) are compared, and only among a search's results
(``domain/conflicts.py`` decides what follows). Pure and conservative: a pair it misses
keeps the fused order; a pair it takes wrongly marks a current fact as outdated.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from eden_memory.domain.stemming import porter_stem
from eden_memory.domain.stop_words import is_stop_word

# Words, and numbers and addresses kept whole ("503-555-0147", "jae@kim.com", "9.99").
_TOKEN = re.compile(r"[\w.@-]*\d[\w.@-]*\w|\w+@[\w.-]+\w|[^\W_]+")
_FIRST_PERSON = frozenset({"i", "my", "me", "mine"})
# Nouns named by the word before them: a phone number, a home address.
_GENERIC = frozenset({"number", "address", "name"})
_TIME_UNITS = frozenset({"dai", "week", "month", "year", "hour", "minut", "time"})


def _words(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Attributes with one value at a time, each named by a few words, as written: "works at" names
# a job, "working on" does not.
FAMILIES: dict[str, frozenset[str]] = {
    name: _words(words)
    for name, words in {
        "home": "live lives lived resides relocated moved rents rented apartment address",
        "phone": "phone cell mobile",
        "email": "email",
        "job": "work works job employer employed hired career",
        "payment": "pays paid payment",
        "price": "costs cost price priced fee",
        "date": "exam test appointment deadline",
        "progress": "finished completed",
        "vehicle": "car drives drive",
        "budget": "budget",
        "instrument": "plays play instrument",
        "wearable": "watch wears",
        "running": "run runs ran km miles",
        "stack": "database migrated",
        "partner": "dating married partner boyfriend girlfriend husband wife divorced",
    }.items()
}
# Words that say a value changed; they name neither the subject nor a value. A fact that
# names no attribute must say one of ``SWITCH`` to be read as changing another's.
SWITCH = _words("changed switched left quit sold moved replaced")
CHANGE = SWITCH | _words(
    "now new newly started got became upgraded raised lowered increased longer anymore"
)
# Who a fact is about, besides names: "my sister Anna" and "my friend Anna" are two people.
RELATIONS = frozenset(
    map(
        porter_stem,
        _words(
            "mother mom father dad parents sister brother son daughter kids children child "
            "wife husband partner boyfriend girlfriend friend cousin aunt uncle grandmother "
            "grandfather niece nephew roommate neighbour neighbor boss manager coworker "
            "colleague landlord dog cat pet team company"
        ),
    )
)


@dataclass(frozen=True)
class Claim:
    """What one fact says, read for the rule: who, which attributes, which values."""

    subject: frozenset[str]
    attributes: frozenset[str]  # names of ``FAMILIES``
    values: frozenset[str]  # its other words: stems, and numbers and addresses whole
    switched: bool = False  # it says a value changed: one of ``SWITCH``


def claim(text: str) -> Claim:
    """Read ``text``: its subject, then its predicate (the first word after the subject but
    plain words and words of change: "moved", "phone", "works"; its families are the
    attribute) and its values."""
    subject, rest = _subject(_TOKEN.findall(text))
    owned, heads, modifiers = _possessed(rest)
    subject |= owned
    attributes, predicate = _families(heads), bool(heads or owned)
    skip = 1 + len(modifiers) + len(heads) if predicate else 0
    values = {_stem(w) for w in modifiers}
    for word in (w.lower() for w in rest[skip:]):
        if _plain(word) or (word in CHANGE and not _families({word})):
            continue
        if not predicate:
            attributes, predicate = _families({word}), True
        if word not in CHANGE and not _families({word}):
            values.add(_stem(word))
    switched = any(w.lower() in SWITCH for w in rest)
    return Claim(frozenset(subject), attributes, frozenset(values - subject), switched)


def _subject(words: list[str]) -> tuple[set[str], list[str]]:
    """The subject's words (names, relations, the first person) and the words after it;
    leading plain words ("These days my ...") are passed over."""
    subject: set[str] = set()
    for i, word in enumerate(words):
        if word.lower() in _FIRST_PERSON:
            subject.add("i")
        elif _stem(word) in RELATIONS or (word[0].isupper() and not _plain(word)):
            subject.add(_stem(word))
        elif subject or not _plain(word):
            return subject, words[i:]
    return subject, []


def _possessed(rest: list[str]) -> tuple[set[str], set[str], list[str]]:
    """After "Maya's": whom it names ("mother"), the words naming the attribute (the noun's
    last, "phone number": the last two; "work laptop" names none) and the words before."""
    if not rest or rest[0].lower() != "s":
        return set(), set(), []
    noun = [w.lower() for w in itertools.takewhile(lambda w: not _plain(w), rest[1:])]
    owned = {_stem(w) for w in noun if _stem(w) in RELATIONS}
    if owned or not noun:
        return owned, set(), []
    *before, last = noun
    heads = {last, before[-1]} if before and last in _GENERIC else {last}
    return set(), heads, before[: len(before) - len(heads) + 1]


def _families(words: set[str]) -> frozenset[str]:
    return frozenset(n for n, family in FAMILIES.items() if words & family)


def _plain(word: str) -> bool:
    """A stop word, a unit of time or a generic noun: it tells no value from another."""
    lower = word.lower()
    return is_stop_word(lower) or lower in _GENERIC or _stem(lower) in _TIME_UNITS


def _stem(word: str) -> str:
    """A word's stem; a number, an address or an email stays whole."""
    lower = word.lower()
    return lower if not lower.isalpha() else porter_stem(lower)


def same_attribute(a: Claim, b: Claim) -> bool:
    """Whether ``a`` and ``b`` give one attribute of one subject different values: both
    name one family, or one names none, says it switched and shares a value with the other
    ("works at Figma" / "left Figma and started at Canva")."""
    if not a.subject or a.subject != b.subject:
        return False
    if not (a.values - b.values and b.values - a.values):
        return False
    if a.attributes and b.attributes:
        return bool(a.attributes & b.attributes)
    bare = b if a.attributes else a  # the one that names no attribute
    return bool(a.attributes or b.attributes) and bare.switched and bool(a.values & b.values)
