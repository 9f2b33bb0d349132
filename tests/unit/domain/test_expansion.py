"""Query expansion policy: usable, new queries only, no more than the places left."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.expansion import added_queries


def test_new_queries_fill_the_places_left_in_order() -> None:
    proposed = ["Ana moved to a new city.", "Ana's new home.", "A third one."]
    assert added_queries(["Where did Ana move?"], proposed, 2, 100) == proposed[:2]


def test_repeats_blanks_and_oversize_queries_are_left_out() -> None:
    proposed = ["  where did ANA   move? ", "", "   ", "x" * 11, "Ana's home", "ana's  HOME"]
    assert added_queries(["Where did Ana move?"], proposed, 5, 10) == ["Ana's home"]


def test_nothing_is_added_when_no_place_is_left() -> None:
    assert added_queries(["a", "b", "c"], ["d"], 0, 100) == []


texts = st.text(alphabet=st.sampled_from("ab cAB\t"), max_size=12)


@given(st.lists(texts, max_size=3), st.lists(texts, max_size=8), st.integers(0, 3))
def test_what_is_added_is_usable_new_and_bounded(
    given_queries: list[str], proposed: list[str], wanted: int
) -> None:
    kept = added_queries(given_queries, proposed, wanted, 10)
    assert len(kept) <= wanted
    keys = [" ".join(q.casefold().split()) for q in kept]
    assert len(set(keys)) == len(keys)
    assert not set(keys) & {" ".join(q.casefold().split()) for q in given_queries}
    assert all(q and q == q.strip() and len(q) <= 10 for q in kept)
    stripped = [p.strip() for p in proposed]
    positions = [stripped.index(q) for q in kept]
    assert positions == sorted(positions)
