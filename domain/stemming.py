"""The Porter stemmer, exactly as SQLite's FTS5 ``porter`` tokenizer applies it.

The embedded store's keyword index stems with FTS5's ``porter`` tokenizer; the in-memory
store and MongoDB without Atlas Search must cut words to the same stems, or a query would
find a fact in one store and miss it in another. This is M. F. Porter's algorithm (1980,
with the ``bli``/``logi`` rules of his own later reference code) in the variant FTS5 runs,
down to its edges: tokens under 3 or over 64 UTF-8 bytes are left alone, letters outside
ASCII count as consonants, byte by byte. ``tests/unit/adapters/test_stemming.py`` checks it
word for word against the tokenizer itself. Atlas's ``lucene.english`` analyser stems with
Lucene's port of the same algorithm.

Stems repeat (a store holds a few thousand distinct words), so they are cached.
"""

from __future__ import annotations

from functools import lru_cache

MIN_BYTES, MAX_BYTES = 3, 64
_VOWELS = frozenset(b"aeiou")
_Y = ord("y")

# (suffix, replacement) in FTS5's order; the first suffix that ends the word is the only
# one tried, whether its condition holds or not.
_STEP2 = (
    (b"ational", b"ate"), (b"tional", b"tion"), (b"enci", b"ence"), (b"anci", b"ance"),
    (b"izer", b"ize"), (b"logi", b"log"), (b"bli", b"ble"), (b"alli", b"al"),
    (b"entli", b"ent"), (b"eli", b"e"), (b"ousli", b"ous"), (b"ization", b"ize"),
    (b"ation", b"ate"), (b"ator", b"ate"), (b"alism", b"al"), (b"iveness", b"ive"),
    (b"fulness", b"ful"), (b"ousness", b"ous"), (b"aliti", b"al"), (b"iviti", b"ive"),
    (b"biliti", b"ble"),
)  # fmt: skip
_STEP3 = (
    (b"ical", b"ic"), (b"ness", b""), (b"icate", b"ic"), (b"iciti", b"ic"), (b"ful", b""),
    (b"ative", b""), (b"alize", b"al"),
)  # fmt: skip
_STEP4 = (
    b"al", b"ance", b"ence", b"er", b"ic", b"able", b"ible", b"ant", b"ement", b"ment",
    b"ent", b"ion", b"ou", b"ism", b"ate", b"iti", b"ous", b"ive", b"ize",
)  # fmt: skip


def _consonants(word: bytes) -> list[bool]:
    """Whether each letter is a consonant: not a vowel, and ``y`` only after a vowel."""
    flags, after_consonant = [], False
    for c in word:
        after_consonant = not (c in _VOWELS or (c == _Y and after_consonant))
        flags.append(after_consonant)
    return flags


def _measure(stem: bytes) -> int:
    """Porter's m: how many vowel-consonant sequences the stem holds."""
    flags = _consonants(stem)
    return sum(1 for i in range(1, len(flags)) if flags[i] and not flags[i - 1])


def _has_vowel(stem: bytes) -> bool:
    return any(c in _VOWELS or (c == _Y and i > 0) for i, c in enumerate(stem))


def _cvc(stem: bytes) -> bool:
    """Porter's *o: consonant, vowel, consonant at the end, the last not w, x or y."""
    if len(stem) < 3 or stem[-1] in b"wxy":
        return False
    return _consonants(stem)[-3:] == [True, False, True]


def _suffix(word: bytes, suffixes: tuple[bytes, ...]) -> bytes | None:
    """The first of ``suffixes`` that ends ``word`` and leaves something before it."""
    return next((s for s in suffixes if len(word) > len(s) and word.endswith(s)), None)


def _step1a(word: bytes) -> bytes:
    if not word.endswith(b"s") or word.endswith(b"ss"):
        return word
    if word.endswith(b"es") and (
        (len(word) > 4 and word.endswith(b"sses")) or (len(word) > 3 and word.endswith(b"ies"))
    ):
        return word[:-2]
    return word[:-1]


def _step1b(word: bytes) -> bytes:
    found = _suffix(word, (b"eed", b"ed", b"ing"))
    if found == b"eed":
        return word[:-1] if _measure(word[:-3]) > 0 else word
    if found is None or not _has_vowel(stem := word[: -len(found)]):
        return word
    if _suffix(stem, (b"at", b"bl", b"iz")):
        return stem + b"e"
    last = stem[-1]
    if len(stem) > 1 and last not in _VOWELS and last not in b"lsz" and last == stem[-2]:
        return stem[:-1]
    if _measure(stem) == 1 and _cvc(stem):
        return stem + b"e"
    return stem


def _replace(word: bytes, rules: tuple[tuple[bytes, bytes], ...]) -> bytes:
    found = _suffix(word, tuple(suffix for suffix, _ in rules))
    if found is None or _measure(stem := word[: -len(found)]) == 0:
        return word
    return stem + dict(rules)[found]


def _step4(word: bytes) -> bytes:
    found = _suffix(word, _STEP4)
    if found is None or _measure(stem := word[: -len(found)]) < 2:
        return word
    return stem if found != b"ion" or stem.endswith((b"s", b"t")) else word


def _step5(word: bytes) -> bytes:
    if word.endswith(b"e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            word = stem
    if len(word) > 1 and word.endswith(b"ll") and _measure(word[:-1]) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=65536)
def porter_stem(word: str) -> str:
    """The stem FTS5's ``porter`` tokenizer gives ``word`` (already lower-cased)."""
    data = word.encode("utf-8")
    if not MIN_BYTES <= len(data) <= MAX_BYTES:
        return word
    data = _step1b(_step1a(data))
    if data.endswith(b"y") and _has_vowel(data[:-1]):
        data = data[:-1] + b"i"
    data = _step5(_step4(_replace(_replace(data, _STEP2), _STEP3)))
    return data.decode("utf-8")
