"""The identity memo: the same objects get the kept value; equal ones do not; it stays bounded."""

from __future__ import annotations

from functools import partial

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.identity_memo import IdentityMemo


def test_the_same_objects_get_the_kept_value_without_working_it_out_again() -> None:
    memo: IdentityMemo[str] = IdentityMemo()
    made: list[str] = []

    def make(text: str) -> str:
        made.append(text)
        return text

    a, b = [1], [2]
    assert memo.get((a, b), lambda: make("ab")) == "ab"
    assert memo.get((a, b), lambda: make("other")) == "ab"
    assert made == ["ab"]


def test_equal_but_other_objects_are_worked_out_anew() -> None:
    memo: IdentityMemo[str] = IdentityMemo()
    assert memo.get(([1],), lambda: "first") == "first"
    assert memo.get(([1],), lambda: "second") == "second"


@given(st.lists(st.integers(0, 9), max_size=60), st.integers(1, 4))
def test_every_answer_is_what_make_gives_for_those_objects(picks: list[int], most: int) -> None:
    objects = [object() for _ in range(10)]
    memo: IdentityMemo[int] = IdentityMemo(most)
    for i in picks:
        assert memo.get((objects[i],), partial(int, i)) == i
        assert len(memo._kept) <= most
