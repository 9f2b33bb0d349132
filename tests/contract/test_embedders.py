"""The embedder contract, run against the offline embedders."""

from __future__ import annotations

import pytest

from eden_memory.adapters.embedders.fake import FakeEmbedder
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.ports.embedder import Embedder
from tests.contract.embedder_contract import EmbedderContract


class TestFakeEmbedder(EmbedderContract):
    symmetric = True

    @pytest.fixture
    def embedder(self) -> Embedder:
        return FakeEmbedder()


class TestAsymmetricFakeEmbedder(EmbedderContract):
    symmetric = False

    @pytest.fixture
    def embedder(self) -> Embedder:
        return FakeEmbedder(asymmetric=True)


class TestKeywordEmbedder(EmbedderContract):
    symmetric = True

    @pytest.fixture
    def embedder(self) -> Embedder:
        return KeywordEmbedder()
