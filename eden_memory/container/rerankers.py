"""The reranker the settings choose, when it is an adapter (a cross-encoder in a folder).

``llm`` needs no adapter: the service judges with its own model. ``off`` and ``llm`` build
nothing here; the cross-encoder is loaded once per container, on the first service built.
"""

from __future__ import annotations

from eden_memory.config import EdenMemoryConfig
from eden_memory.domain.reranking import RerankBy
from eden_memory.ports.reranker import Reranker


def reranker(config: EdenMemoryConfig) -> Reranker | None:
    search = config.memory.search
    if search.rerank is not RerankBy.CROSS_ENCODER or search.rerank_model is None:
        return None
    from eden_memory.adapters.rerankers.cross_encoder import CrossEncoderReranker

    return CrossEncoderReranker(search.rerank_model)
