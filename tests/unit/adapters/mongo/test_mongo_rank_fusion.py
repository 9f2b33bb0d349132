"""``$rankFusion`` ranks like the domain's RRF: same formula, same 1-based rank convention.

MongoDB documents the score as the sum, over the input pipelines a document appears in,
of ``weight * 1 / (60 + rank)``, with its own example: third in one pipeline and first in
the other scores ``1/63 + 1/61``. So ranks start at 1, like ``domain.ranking.rrf_scores``
(whose best item contributes ``1 / (k + 1)``), and k is fixed at 60, the domain default.
``rank_fusion_scores`` below computes what the server returns, per that documentation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.mongo.pipelines import RANK_FUSION_K
from eden_memory.domain.ranking import rrf_scores


def rank_fusion_scores(
    pipelines: Mapping[str, Sequence[str]], weights: Mapping[str, float] | None = None
) -> dict[str, float]:
    """The ``score`` metadata ``$rankFusion`` gives each document (documented formula)."""
    scores: dict[str, float] = {}
    for name, ranked in pipelines.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, doc in enumerate(dict.fromkeys(ranked), start=1):
            scores[doc] = scores.get(doc, 0.0) + weight * (1.0 / (RANK_FUSION_K + rank))
    return scores


def test_mongodbs_own_example_scores_document1_at_1_63_plus_1_61() -> None:
    search = ["Document3", "Document2", "Document1"]
    vector = ["Document1", "Document2", "Document3"]
    scores = rank_fusion_scores({"search": search, "vectorSearch": vector})
    assert scores["Document1"] == pytest.approx(0.0322664585)
    assert scores["Document1"] == pytest.approx(1 / 63 + 1 / 61)


def test_the_domain_gives_the_same_score_to_the_same_example() -> None:
    fused = dict(rrf_scores([["D3", "D2", "D1"], ["D1", "D2", "D3"]], k=60))
    assert fused["D1"] == pytest.approx(1 / 63 + 1 / 61)


ids = st.lists(st.sampled_from([f"fact-{n}" for n in range(12)]), max_size=10, unique=True)


@settings(max_examples=200, deadline=None)
@given(semantic=ids, keyword=ids)
def test_server_fusion_scores_and_ranks_like_the_domain(
    semantic: list[str], keyword: list[str]
) -> None:
    server = rank_fusion_scores({"semantic": semantic, "keyword": keyword})
    domain = rrf_scores([semantic, keyword], k=RANK_FUSION_K)
    assert server.keys() == {doc for doc, _ in domain}
    for doc, score in domain:
        assert server[doc] == pytest.approx(score, rel=1e-12)
    # Same order wherever the scores differ; among equal scores the server's order is
    # unspecified, the domain breaks ties by best rank, then by id.
    ordered = [server[doc] for doc, _ in domain]
    assert ordered == sorted(ordered, reverse=True)


def test_a_zero_based_rank_would_not_match_the_documented_example() -> None:
    zero_based = 1 / (60 + 2) + 1 / (60 + 0)
    assert zero_based != pytest.approx(0.0322664585)
