"""The embedder contract, run against the offline embedders."""

from __future__ import annotations

import pytest

from eden_memory.adapters.embedders.fake import FakeEmbedder
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.ports.embedder import Embedder
from tests.contract.embedder_contract import EmbedderContract


class TestFakeEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self) -> Embedder:
        return FakeEmbedder()


class TestKeywordEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self) -> Embedder:
        return KeywordEmbedder()
