"""A memory that is a prompt's sentence with its names swapped is a near-copy (issue 40)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.near_copies import (
    content_words,
    near_copies,
    prompt_sentences,
    sentences_of,
)
from tests.unit.domain.builders import PROPERTY

PROMPT = (
    "Example with invented content. Current text:\n- Ana wants answers in Portuguese.\n"
    'Answer: {"session": ["Ana still needs her half-marathon plan for October."]}\n'
    "The section has no text yet. Write it from these notes, oldest first:"
)
SENTENCES = prompt_sentences([PROMPT])
NOTHING: frozenset[str] = frozenset()


def test_the_examples_with_a_real_name_are_near_copies() -> None:
    for copied in (
        "Alice wants answers in Portuguese.",
        "Alice still needs her half-marathon plan for October.",
        "The section has no text yet.",
    ):
        assert near_copies(copied, SENTENCES, NOTHING), copied


def test_a_sentence_is_split_from_a_longer_line() -> None:
    assert "The section has no text yet." in sentences_of(PROMPT)


def test_a_near_copy_the_conversation_grounds_is_the_memorys_own() -> None:
    said = content_words("Please answer in Portuguese from now on, I want to practise.")
    assert near_copies("Alice wants answers in Portuguese.", SENTENCES, said) == ()


def test_ordinary_memories_are_not_near_copies() -> None:
    for memory in (
        "Alice wants detailed technical answers.",
        "Bob needs the PA rider by Friday.",
        "The Aurora festival budget is 45000 euros.",
    ):
        assert near_copies(memory, SENTENCES, NOTHING) == (), memory


_NAMES = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9).map(str.capitalize)


@PROPERTY
@given(_NAMES, _NAMES)
def test_any_names_swapped_in_leave_a_near_copy(first: str, last: str) -> None:
    name = f"{first} {last}"
    assert near_copies(f"{name} wants answers in Portuguese.", SENTENCES, NOTHING)
    assert near_copies(f"{name} still needs her half-marathon plan for October", SENTENCES, NOTHING)
