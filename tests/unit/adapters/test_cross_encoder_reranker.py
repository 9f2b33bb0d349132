"""The cross-encoder reranker's own edges: loading from a folder, several queries, bad output."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from eden_memory.adapters.rerankers.cross_encoder import CrossEncoderReranker, load_cross_encoder
from eden_memory.domain.errors import ConfigurationError, MissingExtraError, ProviderError


class StubModel:
    """Scores a pair by a table; records the pairs it was given."""

    def __init__(self, table: dict[tuple[str, str], float], fail: bool = False) -> None:
        self.table = table
        self.fail = fail
        self.pairs: list[tuple[str, str]] = []

    def predict(self, pairs: Sequence[tuple[str, str]], **_: Any) -> Any:
        if self.fail:
            raise RuntimeError("out of memory")
        self.pairs.extend(pairs)
        return np.array([self.table.get(p, 0.0) for p in pairs], dtype=np.float32)


async def test_a_passage_keeps_its_best_querys_score() -> None:
    table = {("q1", "a"): 0.9, ("q1", "b"): 0.1, ("q2", "a"): 0.2, ("q2", "b"): 0.7}
    model = StubModel(table)
    reranker = CrossEncoderReranker("models/ms-marco", model=model)
    scores = await reranker.scores(["q1", "q2"], ["a", "b"])
    assert scores == pytest.approx([0.9, 0.7])
    assert len(model.pairs) == 4
    assert reranker.name == "ms-marco"


async def test_a_model_failure_is_a_provider_error() -> None:
    reranker = CrossEncoderReranker("m", model=StubModel({}, fail=True))
    with pytest.raises(ProviderError, match="the cross-encoder failed: out of memory"):
        await reranker.scores(["q"], ["a"])


async def test_a_score_that_is_not_a_number_is_a_provider_error() -> None:
    reranker = CrossEncoderReranker("m", model=StubModel({("q", "a"): math.nan}))
    with pytest.raises(ProviderError, match="not a finite number"):
        await reranker.scores(["q"], ["a", "b"])


def test_a_folder_that_does_not_exist_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="must be the folder of a cross-encoder"):
        load_cross_encoder(tmp_path / "absent")


def test_a_folder_without_a_model_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="no cross-encoder could be loaded"):
        load_cross_encoder(tmp_path)


def test_without_sentence_transformers_the_extra_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(MissingExtraError, match=r"eden-memory\[local\]"):
        load_cross_encoder(tmp_path)
