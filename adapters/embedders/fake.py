"""A deterministic embedder for tests and offline use: every text gets its own fixed vector.

Vectors are derived from the sha256 of the text, so equal texts embed identically in every
process and on every machine, and different texts are nearly orthogonal (cosine around
``±1/sqrt(dimension)``): similar only when texts are equal.
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Sequence

from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.ports.embedder import Embeddings

CHARS_PER_TOKEN = 4
_FLOATS_PER_DIGEST = 8  # a sha256 digest is 32 bytes: eight 32-bit integers


class FakeEmbedder:
    """Hash-seeded unit vectors, with call counting and fault injection for tests.

    ``calls`` counts every call (failed ones too), ``texts_embedded`` the texts of the
    successful ones; set ``fail_next`` to an exception to make the next call raise it.
    """

    def __init__(self, dimension: int = 64, model: str = "fake-hash") -> None:
        self._space = EmbeddingSpace(model, dimension)
        self.calls = 0
        self.texts_embedded = 0
        self.fail_next: Exception | None = None

    @property
    def space(self) -> EmbeddingSpace:
        return self._space

    async def embed(self, texts: Sequence[str]) -> Embeddings:
        if isinstance(texts, str):  # a str is a Sequence[str] too: one letter per "text"
            raise InvalidInputError("embed takes a list of texts, not a single string")
        self.calls += 1
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            raise error
        vectors = [self.vector(text) for text in texts]
        self.texts_embedded += len(texts)
        return Embeddings(vectors=vectors, input_tokens=estimate_tokens(texts))

    def vector(self, text: str) -> list[float]:
        """The vector of one text; subclasses change how texts map to vectors."""
        return hash_vector(text.encode("utf-8"), self._space.dimension)


def hash_vector(seed: bytes, dimension: int) -> list[float]:
    """A unit vector expanded from ``seed`` by sha256 in counter mode, uniform per component."""
    values: list[float] = []
    block = 0
    while len(values) < dimension:
        digest = hashlib.sha256(seed + block.to_bytes(4, "big")).digest()
        values.extend(n / 2**31 - 1.0 for n in struct.unpack(">8I", digest))
        block += 1
    return normalized(values[:dimension])


def normalized(values: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(v * v for v in values))
    if norm == 0.0:
        raise ValueError("cannot normalise a zero vector")
    return [v / norm for v in values]


def estimate_tokens(texts: Sequence[str]) -> int:
    """Tokens as providers roughly count them: about four characters each."""
    return math.ceil(sum(len(t) for t in texts) / CHARS_PER_TOKEN)
