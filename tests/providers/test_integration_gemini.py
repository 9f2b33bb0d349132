"""Gemini for real: one structured generation and one embedding batch.

Runs only with ``EDEN_MEMORY_INTEGRATION=1`` and ``GEMINI_API_KEY`` (or ``GOOGLE_API_KEY``)
set; the model can be changed with ``EDEN_MEMORY_TEST_GEMINI_MODEL``.
"""

from __future__ import annotations

import math
import os

import pytest

from eden_memory.adapters.embedders.gemini import GeminiEmbedder
from eden_memory.adapters.llms.gemini import GeminiLLM
from eden_memory.domain.embedding_space import TextRole
from tests.network_guard import FLAG, integration_enabled
from tests.providers.schemas import Facts, request

HAS_KEY = bool(os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY"))
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not integration_enabled(), reason=f"set {FLAG}=1 to call real providers"),
    pytest.mark.skipif(not HAS_KEY, reason="GEMINI_API_KEY (or GOOGLE_API_KEY) is not set"),
]
MODEL = os.environ.get("EDEN_MEMORY_TEST_GEMINI_MODEL", "gemini-3-flash-preview")


async def test_a_structured_answer_comes_back_validated() -> None:
    llm = GeminiLLM()
    try:
        result = await llm.generate(request(MODEL, max_output_tokens=2000), Facts)
    finally:
        await llm.aclose()

    assert any("Lyon" in fact for fact in result.value.facts)
    assert result.input_tokens > 0
    assert result.output_tokens > 0


async def test_a_batch_embeds_to_unit_vectors_where_similar_texts_are_closer() -> None:
    embedder = GeminiEmbedder(output_dimensionality=768)
    try:
        result = await embedder.embed(
            ["Alice lives in Lyon", "Alice's home is in Lyon", "The invoice is overdue"],
            TextRole.PASSAGE,
        )
    finally:
        await embedder.aclose()

    first = result.vectors[0]
    same, other = (sum(a * b for a, b in zip(first, v, strict=True)) for v in result.vectors[1:])
    assert all(len(v) == 768 for v in result.vectors)
    assert all(math.isclose(math.fsum(x * x for x in v), 1.0, rel_tol=1e-6) for v in result.vectors)
    assert same > other
