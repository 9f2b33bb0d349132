"""The reranker contract: what every ``Reranker`` adapter must do.

Subclass ``RerankerContract`` in a ``test_*.py`` module and provide the fixture
``reranker``. An adapter whose judge reads meaning in the test (a trained or scripted one,
not a randomly initialised model) subclasses ``JudgingRerankerContract``: it is held to
putting the passage that answers first, too.
"""

from __future__ import annotations

import math

import pytest

from eden_memory.ports.reranker import Reranker

QUESTION = "Where does Ana live now?"
PASSAGES = [
    "Bob prefers tea over coffee.",
    "Ana lives in Braga now.",
    "The festival budget is 50,000 dollars.",
]


class RerankerContract:
    @pytest.fixture
    def reranker(self) -> Reranker:
        raise NotImplementedError("a reranker contract subclass must provide `reranker`")

    async def test_one_finite_score_per_passage(self, reranker: Reranker) -> None:
        scores = await reranker.scores([QUESTION], PASSAGES)
        assert len(scores) == len(PASSAGES)
        assert all(isinstance(s, float) and math.isfinite(s) for s in scores)

    async def test_no_passages_no_scores(self, reranker: Reranker) -> None:
        assert await reranker.scores([QUESTION], []) == []

    async def test_the_same_question_gets_the_same_scores(self, reranker: Reranker) -> None:
        first = await reranker.scores([QUESTION], PASSAGES)
        assert await reranker.scores([QUESTION], PASSAGES) == first

    async def test_several_queries_still_score_each_passage_once(self, reranker: Reranker) -> None:
        scores = await reranker.scores([QUESTION, "What does Bob drink?"], PASSAGES)
        assert len(scores) == len(PASSAGES)

    def test_it_names_its_model(self, reranker: Reranker) -> None:
        assert isinstance(reranker.name, str)
        assert reranker.name


class JudgingRerankerContract(RerankerContract):
    async def test_the_passage_that_answers_scores_highest(self, reranker: Reranker) -> None:
        scores = await reranker.scores([QUESTION], PASSAGES)
        assert len(scores) >= 2
        assert scores.index(max(scores)) == 1
        assert scores.count(max(scores)) == 1

    async def test_a_passage_answering_only_the_second_query_still_ranks_first(
        self, reranker: Reranker
    ) -> None:
        scores = await reranker.scores(["What is the festival's budget?", QUESTION], PASSAGES[:2])
        assert scores[1] > scores[0]
