"""An offline bag-of-words embedder: texts that share words get similar vectors.

Not a language model: "car" and "automobile" are unrelated to it. It exists so the library
works with no network and no model download, and so dedup scenarios ("John works at Acme"
against "John works at TechCorp") behave like they would with a real embedder.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from functools import lru_cache

from eden_memory.adapters.embedders.fake import FakeEmbedder, hash_vector, normalized

_WORD = re.compile(r"\w+")


class KeywordEmbedder(FakeEmbedder):
    """Each word has a fixed random direction; a text is the tf-weighted sum of its words,
    whatever its role (a query and a fact with the same words embed alike).

    Two texts' cosine is then close to the share of (weighted) words they have in common,
    give or take ``1/sqrt(dimension)`` of noise, which is why the default dimension is 256.
    """

    def __init__(self, dimension: int = 256, model: str = "keyword-hash") -> None:
        super().__init__(dimension=dimension, model=model)

    def vector(self, text: str) -> list[float]:
        counts = Counter(tokens(text))
        if not counts:  # nothing word-like: fall back to the text's own hash
            return super().vector(text)
        total = [0.0] * self.space.dimension
        for token, count in counts.items():
            weight = 1.0 + math.log(count)  # sublinear: repeating a word adds little
            for i, value in enumerate(_token_vector(token, self.space.dimension)):
                total[i] += weight * value
        if not any(total):  # the words cancel out (likely in very few dimensions): the hash
            return super().vector(text)
        return normalized(total)


def tokens(text: str) -> list[str]:
    """Lowercase word tokens with simple suffix stripping; single letters are dropped."""
    words = _WORD.findall(unicodedata.normalize("NFKC", text).casefold())
    return [stem(w) for w in words if len(w) > 1 or w.isdigit()]


def stem(word: str) -> str:
    """Plural and third-person ``s`` only: enough to match "works" with "work"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=8192)
def _token_vector(token: str, dimension: int) -> tuple[float, ...]:
    return tuple(hash_vector(b"keyword:" + token.encode("utf-8"), dimension))
