"""One embedding space per store, checked on every path that writes or compares vectors.

The store is the authority, and checks atomically at no extra cost: a write carries the space
of its facts (``embedding_model``/``embedding_dim``, always the embedder's, also on a
revised fact), a semantic ranking the space of its query. So search and dedup refuse another
model in the ranking call itself, without a round trip of their own.

``require_space`` refuses *early*: before an embedding call that would be paid for nothing,
and before an import writes anything at all. It costs one small read, on paths that are not
the hot one (edit, ingestion, import). Re-embedding is the one path that moves the store to
the embedder's space, and does not call it.
"""

from __future__ import annotations

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactLookup


async def require_space(store: FactLookup, embedder: Embedder) -> EmbeddingSpace:
    """The embedder's space if the store has none yet or the same; ``EmbeddingSpaceError``
    (naming both models and the command that re-embeds) otherwise."""
    stored = await store.embedding_space()
    if stored is not None:
        stored.require_same(embedder.space)
    return embedder.space
