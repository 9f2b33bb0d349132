from __future__ import annotations

import pytest

from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.errors import EmbeddingSpaceError, StoreError

SMALL = EmbeddingSpace("text-embedding-3-small", 1536)


def test_vectors_of_the_same_space_are_accepted() -> None:
    SMALL.require_same(EmbeddingSpace("text-embedding-3-small", 1536))
    SMALL.check_vector(1536)


def test_another_model_is_refused_with_a_way_forward() -> None:
    with pytest.raises(EmbeddingSpaceError, match="reembed") as caught:
        SMALL.require_same(EmbeddingSpace("all-MiniLM-L6-v2", 384))
    assert isinstance(caught.value, StoreError)
    assert "all-MiniLM-L6-v2" in str(caught.value)


def test_another_model_of_the_same_dimension_is_refused_naming_both_and_the_command() -> None:
    with pytest.raises(EmbeddingSpaceError) as caught:
        SMALL.require_same(EmbeddingSpace("text-embedding-3-large", 1536))
    text = str(caught.value)
    assert "text-embedding-3-small" in text
    assert "text-embedding-3-large" in text
    assert "`eden-memory reembed --agent AGENT_ID`" in text


def test_the_same_model_with_another_dimension_is_refused() -> None:
    with pytest.raises(EmbeddingSpaceError):
        SMALL.require_same(EmbeddingSpace("text-embedding-3-small", 512))


def test_a_vector_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(EmbeddingSpaceError, match="1536"):
        SMALL.check_vector(1535)


@pytest.mark.parametrize(("model", "dimension"), [("", 8), ("m", 0), ("m", -1)])
def test_a_space_needs_a_model_and_a_positive_dimension(model: str, dimension: int) -> None:
    with pytest.raises(ValueError, match="positive dimension"):
        EmbeddingSpace(model, dimension)


def test_a_store_of_a_retired_space_is_told_it_can_only_be_reembedded() -> None:
    old = EmbeddingSpace("multilingual-e5-small-q4-query", 384)
    with pytest.raises(EmbeddingSpaceError) as caught:
        old.require_same(EmbeddingSpace("multilingual-e5-small-q4", 384))
    text = str(caught.value)
    assert "which no embedder makes any more" in text
    assert "configure the multilingual-e5-small-q4-query embedder again" not in text
    assert "`eden-memory reembed --agent AGENT_ID` with multilingual-e5-small-q4" in text


def test_a_text_role_is_a_query_or_a_passage() -> None:
    assert [r.value for r in TextRole] == ["query", "passage"]
    assert TextRole("query") is TextRole.QUERY
