from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.errors import InvalidMemoryTextError
from eden_memory.domain.text import (
    MAX_BLOB_CHARS,
    MAX_LINE_CHARS,
    blob_text,
    check_xml_safe,
    content_hash,
    normalize_for_hash,
    single_line,
    truncate_words,
    word_count,
)
from tests.unit.domain.builders import PROPERTY, line_text

WORDS = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzÄÖÜéèçñ0123456789@'-", min_size=1, max_size=8),
    min_size=1,
    max_size=8,
)
XML_ILLEGAL = st.one_of(
    st.characters(min_codepoint=0, max_codepoint=8),
    st.sampled_from(["\x0b", "\x0c", "\ufffe", "\uffff"]),
    st.characters(min_codepoint=0x0E, max_codepoint=0x1F),
)


def test_words_are_runs_of_non_space_characters() -> None:
    assert word_count("") == 0
    assert word_count("  Alice   likes\ttea\n ") == 3


def test_variants_in_case_spacing_and_final_punctuation_share_a_hash() -> None:
    base = content_hash("Alice's email is alice@example.com")
    for variant in (
        "alice's EMAIL is Alice@Example.com",
        "  Alice's   email\tis\nalice@example.com  ",
        "Alice's email is alice@example.com.",
        "Alice's email is alice@example.com !",
        "Alice's email is alice@example.com;,",
    ):
        assert content_hash(variant) == base


def test_different_statements_have_different_hashes() -> None:
    assert content_hash("Alice likes tea") != content_hash("Alice likes coffee")


def test_unicode_compatibility_forms_share_a_hash() -> None:
    assert content_hash("ﬁle ＡＢＣ") == content_hash("file abc")


@PROPERTY
@given(WORDS, st.sampled_from(["", ".", "!", ";", ",", " .", "!!", "..."]), st.data())
def test_case_space_and_final_punctuation_never_change_the_hash(
    words: list[str], ending: str, data: st.DataObject
) -> None:
    text = " ".join(words)
    spaced = data.draw(st.sampled_from([" ", "  ", "\t", "\n", " \r\n "]))
    variant = "  " + spaced.join(w.upper() for w in words) + ending + " "
    assert content_hash(variant) == content_hash(text)
    assert content_hash(text.casefold()) == content_hash(text)


@PROPERTY
@given(st.text())
def test_the_hash_is_a_sha256_of_the_normalized_text(text: str) -> None:
    digest = content_hash(text)
    assert len(digest) == 64
    assert digest == content_hash(normalize_for_hash(text))


def test_a_single_line_collapses_whitespace() -> None:
    assert single_line("  Alice\n likes \t tea  ") == "Alice likes tea"


@pytest.mark.parametrize("text", ["", " ", "\n\t \r\n", "\u2028"])
def test_a_single_line_refuses_empty_text(text: str) -> None:
    with pytest.raises(InvalidMemoryTextError, match="empty"):
        single_line(text)


def test_a_single_line_refuses_oversize_text() -> None:
    single_line("x" * MAX_LINE_CHARS)
    with pytest.raises(InvalidMemoryTextError, match="characters"):
        single_line("x" * (MAX_LINE_CHARS + 1))


def test_a_single_line_refuses_too_many_words() -> None:
    assert single_line("one two three", max_words=3) == "one two three"
    with pytest.raises(InvalidMemoryTextError, match="4 words"):
        single_line("one two three four", max_words=3)


@PROPERTY
@given(st.text(max_size=20), XML_ILLEGAL, st.text(max_size=20))
def test_a_single_line_refuses_characters_xml_cannot_carry(
    before: str, bad: str, after: str
) -> None:
    with pytest.raises(InvalidMemoryTextError):
        single_line(f"fact {before}{bad}{after}")
    with pytest.raises(InvalidMemoryTextError):
        blob_text(f"blob {before}{bad}{after}")


def test_xml_safe_text_includes_tabs_newlines_and_carriage_returns() -> None:
    check_xml_safe("a\tb\nc\r\nd 🧠 \x7f \u2028")


@PROPERTY
@given(line_text())
def test_a_single_line_is_stripped_one_line_and_stable(text: str) -> None:
    line = single_line(text)
    assert line == line.strip()
    assert "\n" not in line
    assert "\r" not in line
    assert "  " not in line
    assert single_line(line) == line
    assert line.split() == text.split()


def test_a_blob_keeps_its_layout_and_trims_its_ends() -> None:
    assert blob_text("\n  ## Projects\n- one\n\n- two  \n") == "## Projects\n- one\n\n- two"


def test_a_blob_refuses_oversize_text() -> None:
    with pytest.raises(InvalidMemoryTextError, match="consolidated"):
        blob_text("x" * (MAX_BLOB_CHARS + 1))


def test_truncation_keeps_text_within_the_limit_unchanged() -> None:
    assert truncate_words("a b\nc", 3) == "a b\nc"


def test_truncation_keeps_whole_lines_when_they_fit() -> None:
    text = "one two three\nfour five six\nseven eight nine"
    assert truncate_words(text, 7) == "one two three\nfour five six"


def test_truncation_cuts_inside_a_line_when_too_little_would_be_left() -> None:
    assert truncate_words("one two three four five", 3) == "one two three"
    assert truncate_words("one\ntwo three four five six seven", 6) == "one\ntwo three four five six"


def test_truncation_to_one_word_keeps_a_word_after_blank_lines() -> None:
    assert truncate_words("\n\nfirst second", 1) == "first"


@PROPERTY
@given(
    st.lists(st.lists(st.sampled_from(["w", "word", "x-y", "🧠"]), max_size=12), max_size=12),
    st.integers(min_value=0, max_value=60),
)
def test_truncation_never_exceeds_the_limit(lines: list[list[str]], limit: int) -> None:
    text = "\n".join(" ".join(line) for line in lines)
    cut = truncate_words(text, limit)
    assert word_count(cut) <= limit
    if word_count(text) <= limit:
        assert cut == text
    elif limit > 0:
        assert word_count(cut) > 0
        assert cut.split() == text.split()[: word_count(cut)]


@PROPERTY
@given(st.text(), st.integers(min_value=0, max_value=30))
def test_truncation_of_any_text_never_exceeds_the_limit(text: str, limit: int) -> None:
    assert word_count(truncate_words(text, limit)) <= limit
