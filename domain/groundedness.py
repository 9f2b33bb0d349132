"""Whether a consolidated text holds specifics that none of its inputs gave.

A consolidation merges a blob and its notes; it must invent nothing. A real small model
wrote a "$50,000" budget where the notes said 40,000 then 45,000 euros (issue 40). A model
cannot be told to be truthful into being so, but its specifics can be checked: every
number, amount and currency, identifier (email, link, code with digits) and capitalised
name of the new text must be found in what the prompt gave it.

Numbers are compared by value: "45,000", "45 000", "45000" and "45k" are one number. A
capitalised word counts as a name only inside a sentence (the first word of a line, a
bullet or a sentence is capitalised anyway: headings such as "Style:" are not specifics).
Words are compared case-folded, so "the Lyon docks" grounds "Lyon Docks".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

_EMAIL_OR_LINK = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)\S+[\w/]")
# A code: letters and digits mixed ("#4417", "AB-1234", "v2.3"), or digits joined by
# phone-like separators; compared by its letters and digits only.
_CODE = re.compile(r"#\s?[\w-]+|\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b")
_SEP = r"[,\u00a0\u202f ]"
_NUMBER = re.compile(
    rf"(?<![\w.])(\d{{1,3}}(?:{_SEP}\d{{3}})+|\d+)(?:[.,](\d+)(?!{_SEP}?\d{{3}}\b))?"
    r"\s?(k|m|bn|thousand|million|billion)?(?:st|nd|rd|th)?(?![\w])",
    re.IGNORECASE,
)
_SCALE = {"k": 3, "thousand": 3, "m": 6, "million": 6, "bn": 9, "billion": 9}
# A list's own numbering ("1. ", "2) ") is layout, not a specific.
_ENUMERATION = re.compile(r"^\s*\d{1,2}[.)]\s", re.MULTILINE)
_CURRENCIES = {
    "$": "USD",
    "usd": "USD",
    "dollar": "USD",
    "dollars": "USD",
    "€": "EUR",
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "£": "GBP",
    "gbp": "GBP",
    "¥": "JPY",
    "yen": "JPY",
    "jpy": "JPY",
}
_CURRENCY = re.compile(r"[$€£¥]|\b(?:usd|eur|gbp|jpy|dollars?|euros?|yen)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
# Where a sentence starts: the text's start, a line's, after a bullet, ". ", ": ", "; ", "(".
_STARTS = re.compile(r"(?:\A|[.!?:;(\n])\s*(?:[-*•]\s*)?\Z")
_ALWAYS_CAPITAL = frozenset({"i", "ai", "ok"})


def ungrounded_specifics(text: str, inputs: Iterable[str]) -> tuple[str, ...]:
    """The specifics of ``text`` that no input holds, as ``text`` writes them; () when none."""
    given = "\n".join(inputs)
    found: list[str] = []
    compact_given = _compact(given)
    rest = text
    for pattern in (_EMAIL_OR_LINK, _CODE):
        for match in pattern.finditer(rest):
            if _compact(match.group()) not in compact_given:
                found.append(match.group())
        rest = pattern.sub(" ", rest)
    values = numbers_in(_masked_identifiers(given))
    found += [raw for raw, value in _numbers(rest) if value not in values]
    currencies = {_CURRENCIES[c.casefold()] for c in _CURRENCY.findall(given)}
    found += [c for c in _CURRENCY.findall(rest) if _CURRENCIES[c.casefold()] not in currencies]
    words = {_bare(w) for w in _WORD.findall(given)}
    found += [name for name in names_in(rest) if _bare(name) not in words]
    return tuple(dict.fromkeys(found))


def numbers_in(text: str) -> frozenset[Decimal]:
    """The values of the numbers ``text`` writes."""
    return frozenset(value for _, value in _numbers(text))


def names_in(text: str) -> list[str]:
    """Capitalised words inside a sentence (not its first word), in order."""
    names = []
    for match in _WORD.finditer(text):
        word = match.group()
        if not word[0].isupper() or word.casefold() in _ALWAYS_CAPITAL | _CURRENCIES.keys():
            continue
        if not _STARTS.search(text[: match.start()][-8:]):
            names.append(word)
    return names


def _numbers(text: str) -> list[tuple[str, Decimal]]:
    out = []
    for match in _NUMBER.finditer(_ENUMERATION.sub(" ", text)):
        whole, fraction, scale = match.groups()
        digits = re.sub(_SEP, "", whole) + (f".{fraction}" if fraction else "")
        try:
            value = Decimal(digits).scaleb(_SCALE[scale.casefold()] if scale else 0)
        except InvalidOperation:  # pragma: no cover - the pattern only gives digits
            continue
        out.append((match.group().strip(), value.normalize()))
    return out


def _masked_identifiers(text: str) -> str:
    """Inputs with identifiers kept as words too: "#4417" also grounds the number 4417."""
    return text + "\n" + " ".join(m.group().lstrip("#") for m in _CODE.finditer(text))


def _compact(text: str) -> str:
    return re.sub(r"[\W_]", "", text.casefold())


def _bare(word: str) -> str:
    folded = word.casefold().replace("’", "'")
    return folded[:-2] if folded.endswith("'s") else folded.rstrip("'")
