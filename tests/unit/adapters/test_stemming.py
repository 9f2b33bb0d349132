"""The stores' Porter stemmer cuts every word exactly as SQLite's FTS5 ``porter`` tokenizer does.

FTS5 is the reference: the embedded store's index is built by it, and the in-memory store
and MongoDB without Atlas Search must find what it finds. Its stems are read back from an
``fts5vocab`` table, word by word.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite.keyword.mending import TOKENIZE
from eden_memory.adapters.stores.stemming import porter_stem

ROOT = Path(__file__).resolve().parents[3]

# Porter's own examples (1980), each suffix rule at least once, and words at the edges.
PORTER = """
caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled
sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional
rational valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli
vietnamization predication operator feudalism decisiveness hopefulness callousness
formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical
hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible
irritant replacement adjustment dependent adoption homologou communism activate
angulariti homologous effective bowdlerize probate rate cease controll roll generalizations
oscillators attended attending groups meetings running ran agencies researching archaeology
ies sses eed ing yes ayed aing eing is a at
"""


@pytest.fixture(scope="module")
def fts5() -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE words USING fts5(word, tokenize = '{TOKENIZE}')")
    conn.execute("CREATE VIRTUAL TABLE stems USING fts5vocab(words, instance)")
    yield conn
    conn.close()


def fts5_stems(conn: sqlite3.Connection, words: Sequence[str]) -> list[str]:
    """The stem FTS5 indexes for each of ``words`` (each a single token)."""
    conn.execute("DELETE FROM words")
    conn.executemany(
        "INSERT INTO words (rowid, word) VALUES (?, ?)", [(n, w) for n, w in enumerate(words)]
    )
    stems = dict(conn.execute("SELECT doc, term FROM stems").fetchall())
    return [stems[n] for n in range(len(words))]


def folded(word: str) -> str:
    """What the ``unicode61`` tokenizer hands the stemmer: lower case, no accents."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def assert_same_stems(conn: sqlite3.Connection, words: Sequence[str]) -> None:
    expected = fts5_stems(conn, words)
    wrong = [(w, e, porter_stem(folded(w))) for w, e in zip(words, expected, strict=True)]
    assert [w for w in wrong if w[1] != w[2]] == []


def test_porters_examples(fts5: sqlite3.Connection) -> None:
    assert_same_stems(fts5, PORTER.split())
    assert porter_stem("attended") == porter_stem("attending") == porter_stem("attend")
    assert porter_stem("groups") == porter_stem("group")


def test_every_word_of_the_documentation(fts5: sqlite3.Connection) -> None:
    pages = [ROOT / "README.md", *ROOT.glob("docs/*.md")]
    text = " ".join(page.read_text(encoding="utf-8") for page in pages)
    words = sorted({w.lower() for w in re.findall(r"[^\W\d_]+", text)})
    assert len(words) > 1000
    assert_same_stems(fts5, words)


# Pieces that reach every rule and its edge: suffixes, vowels, y, doubled consonants.
PIECES = [
    *"aeiouybcdlstzwx", "ing", "ed", "eed", "ies", "sses", "ational", "tional", "ization",
    "ation", "ator", "bli", "logi", "alli", "entli", "eli", "ousli", "ness", "ful", "ical",
    "ative", "alize", "ement", "ion", "ll", "ate", "iti", "ous", "ive", "ize", "er", "ic",
    "able", "ant", "ent", "ism", "ou", "at", "bl", "iz", "é", "ø", "ß", "日", "ж",
]  # fmt: skip


BUILT = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(BUILT, max_size=50))
def test_any_word_built_of_suffixes(fts5: sqlite3.Connection, words: list[str]) -> None:
    assert_same_stems(fts5, list(dict.fromkeys(words)))


def test_tokens_outside_the_stemmers_lengths_are_kept(fts5: sqlite3.Connection) -> None:
    longest, too_long = "talk" * 15 + "ings", "talk" * 15 + "sings"  # 64 and 65 bytes
    assert porter_stem(longest) == "talk" * 15
    assert porter_stem(too_long) == too_long
    assert porter_stem("is") == "is"
    assert_same_stems(fts5, [longest, too_long, "is", "ös", "日s"])
