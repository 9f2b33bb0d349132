"""A deterministic embedder for tests and offline use: every text gets its own fixed vector.

Vectors are derived from the sha256 of the text, so equal texts embed identically in every
process and on every machine, and different texts are nearly orthogonal (cosine around
``±1/sqrt(dimension)``): similar only when texts are equal. It is symmetric, like most
models; ``asymmetric=True`` makes it embed a query apart from a stored text, as e5 and
Gemini do, so a test can tell which role each call passed.
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections import Counter
from collections.abc import Sequence

from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import InvalidInputError
from eden_memory.ports.embedder import Embeddings

CHARS_PER_TOKEN = 4
_FLOATS_PER_DIGEST = 8  # a sha256 digest is 32 bytes: eight 32-bit integers


class FakeEmbedder:
    """Hash-seeded unit vectors, with call counting and fault injection for tests.

    ``calls`` counts every call (failed ones too), ``texts_embedded`` the texts of the
    successful ones and ``texts_by_role`` the same texts by the role they were embedded as;
    set ``fail_next`` to an exception to make the next call raise it. ``asymmetric=True``:
    a query's vector is its text's stored vector bent half-way to another direction (cosine
    ``1/sqrt(2)`` with it), so a query embedded as a passage, or a fact as a query, shows.
    """

    def __init__(
        self, dimension: int = 64, model: str = "fake-hash", *, asymmetric: bool = False
    ) -> None:
        self._space = EmbeddingSpace(model, dimension)
        self._asymmetric = asymmetric
        self.calls = 0
        self.texts_embedded = 0
        self.texts_by_role: Counter[TextRole] = Counter()
        self.fail_next: Exception | None = None

    @property
    def space(self) -> EmbeddingSpace:
        return self._space

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        if isinstance(texts, str):  # a str is a Sequence[str] too: one letter per "text"
            raise InvalidInputError("embed takes a list of texts, not a single string")
        role = TextRole(role)  # a role that is not one fails here, as a mistyped one should
        self.calls += 1
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            raise error
        vectors = [self._role_vector(text, role) for text in texts]
        self.texts_embedded += len(texts)
        self.texts_by_role[role] += len(texts)
        return Embeddings(vectors=vectors, input_tokens=estimate_tokens(texts))

    def vector(self, text: str) -> list[float]:
        """The vector of one text; subclasses change how texts map to vectors."""
        return hash_vector(text.encode("utf-8"), self._space.dimension)

    def _role_vector(self, text: str, role: TextRole) -> list[float]:
        stored = self.vector(text)
        if not self._asymmetric or role is TextRole.PASSAGE:
            return stored
        bend = hash_vector(b"query:" + text.encode("utf-8"), self._space.dimension)
        return normalized([s + b for s, b in zip(stored, bend, strict=True)])


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
