"""A level keeps a few notes from one session, the model's first ones."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.reflection_checks import (
    NOTES_PER_SCOPE,
    over_limit_reason,
    split_at_limit,
)
from tests.unit.domain.builders import PROPERTY


def test_the_notes_past_the_limit_are_split_off_in_order() -> None:
    notes = [f"Melanie note {i}" for i in range(17)]  # a whole session copied, one line each
    kept, over = split_at_limit(notes)
    assert kept == tuple(notes[:NOTES_PER_SCOPE])
    assert over == tuple(notes[NOTES_PER_SCOPE:])
    assert NOTES_PER_SCOPE == 3


def test_within_the_limit_every_note_is_kept() -> None:
    assert split_at_limit(["Ana likes tea."]) == (("Ana likes tea.",), ())
    assert split_at_limit([]) == ((), ())


def test_the_reason_names_the_limit() -> None:
    assert over_limit_reason(3) == (
        "more than 3 notes for one level from one session; the first 3 are kept"
    )


def test_a_negative_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 0"):
        split_at_limit(["a"], -1)


@PROPERTY
@given(st.lists(st.text(max_size=8), max_size=20), st.integers(0, 8))
def test_nothing_is_lost_and_nothing_over_the_limit_is_kept(notes: list[str], limit: int) -> None:
    kept, over = split_at_limit(notes, limit)
    assert kept + over == tuple(notes)
    assert len(kept) == min(limit, len(notes))
