"""``benchmarks.recall_depth``: the former session raise it prints beside the new one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.recall_depth import share_of_score
from eden_memory.domain.ranking import FusedHit
from eden_memory.domain.session_context import session_bonuses
from tests.unit.domain.builders import PROPERTY

drawn = st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["s1", "s2", None])), max_size=10)


@PROPERTY
@given(drawn, st.floats(0, 1))
def test_the_former_raise_is_the_new_one_when_the_weakest_candidate_scores_0(
    items: list[tuple[float, str | None]], weight: float
) -> None:
    """Why hybrid search did not move: its weakest fused candidate scores 0 or nearly."""
    hits = [FusedHit(f"f{i}", score) for i, (score, _) in enumerate(items)]
    hits.append(FusedHit("weakest", 0.0))
    sessions = {f"f{i}": s for i, (_, s) in enumerate(items) if s is not None}
    former, new = share_of_score(hits, sessions, weight), session_bonuses(hits, sessions, weight)
    for doc in {*former, *new}:
        assert former.get(doc, 0.0) == pytest.approx(new.get(doc, 0.0))


def test_on_cosines_the_former_raise_outweighs_closeness() -> None:
    hits = [FusedHit("best", 0.88), FusedHit("mate", 0.80), FusedHit("other", 0.79)]
    sessions = {"mate": "s", "other": "s"}
    former = share_of_score(hits, sessions, 0.3)
    assert former["mate"] > 0.88 - 0.80  # a mate's raise bigger than any gap between cosines
    assert session_bonuses(hits, sessions, 0.3)["other"] == pytest.approx(0.3 * 0.01)
