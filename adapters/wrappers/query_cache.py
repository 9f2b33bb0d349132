"""A bounded cache of query vectors: a repeated query is not embedded again.

An agent asks the same few questions over and over (the user's name, the current project),
and the query embedding is most of what a search waits for with an offline model. Only
``TextRole.QUERY`` texts are kept: a stored text is embedded once, when it is written. The
key holds the embedding space (model and dimension) and the role, so two models never share
a vector; the least recently used entry goes first once ``max_entries`` are held.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Sequence

from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import ProviderError
from eden_memory.ports.embedder import Embedder, Embeddings

Key = tuple[EmbeddingSpace, TextRole, str]


class QueryVectorCache:
    """``inner`` with its query vectors remembered, at most ``max_entries`` (0: none).

    Every vector handed out is a copy: a caller that changes one changes nobody else's.
    A batch embeds only the texts it has not seen, in one call of ``inner``.
    """

    def __init__(self, inner: Embedder, max_entries: int) -> None:
        if max_entries < 0:
            raise ValueError(f"a cache holds 0 or more entries, got {max_entries}")
        self._inner = inner
        self._max = max_entries
        self._held: OrderedDict[Key, array[float]] = OrderedDict()

    @property
    def space(self) -> EmbeddingSpace:
        return self._inner.space

    def __len__(self) -> int:
        return len(self._held)

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        if role is not TextRole.QUERY or self._max == 0:
            return await self._inner.embed(texts, role)
        keys: list[Key] = [(self._inner.space, role, t) for t in texts]
        # Hits are read before the call: another search may evict them while it runs.
        known = {k: self._hit(k) for k in keys if k in self._held}
        missing = list(dict.fromkeys(k for k in keys if k not in known))
        fresh = await self._fresh(missing, role)
        for key, vector in zip(missing, fresh.vectors, strict=True):
            known[key] = array("d", vector)
            self._keep(key, known[key])
        return Embeddings([list(known[k]) for k in keys], fresh.input_tokens)

    async def _fresh(self, missing: list[Key], role: TextRole) -> Embeddings:
        if not missing:
            return Embeddings([])
        fresh = await self._inner.embed([k[2] for k in missing], role)
        if len(fresh.vectors) != len(missing):
            raise ProviderError(
                f"the embedder returned {len(fresh.vectors)} vectors for {len(missing)} texts"
            )
        return fresh

    def _hit(self, key: Key) -> array[float]:
        self._held.move_to_end(key)
        return self._held[key]

    def _keep(self, key: Key, vector: array[float]) -> None:
        self._held[key] = vector
        self._held.move_to_end(key)
        while len(self._held) > self._max:
            self._held.popitem(last=False)
