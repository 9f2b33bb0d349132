"""The embedder contract on the offline local model (all-MiniLM-L6-v2, shipped on PyPI).

The model is part of the ``local`` extra, which CI installs (with torch pinned to the CPU
wheel); it runs for real here, with no network.
"""

from __future__ import annotations

from typing import Any

import pytest

from eden_memory.adapters.embedders.local import DIMENSION, LocalEmbedder, load_model
from eden_memory.domain.embedding_space import TextRole
from eden_memory.ports.embedder import Embedder
from tests.contract.embedder_contract import EmbedderContract, cosine


@pytest.fixture(scope="module")
def model() -> Any:
    return load_model()


class TestLocalEmbedder(EmbedderContract):
    symmetric = True

    @pytest.fixture
    def embedder(self, model: Any) -> Embedder:
        return LocalEmbedder(model)


async def test_the_local_model_puts_paraphrases_closer_than_unrelated_text(model: Any) -> None:
    embedder = LocalEmbedder(model)
    assert embedder.space.dimension == DIMENSION
    a, b, c = (
        await embedder.embed(
            [
                "Alice works at Acme Corp as CTO",
                "Alice is the chief technology officer of Acme Corp",
                "The festival takes place in Lyon in June",
            ],
            TextRole.PASSAGE,
        )
    ).vectors
    assert cosine(a, b) > 0.7
    assert cosine(a, b) > cosine(a, c) + 0.3
