"""Keyword weights are finite and non-negative whatever counts an index reports (issue 40,
item 6: a term held by more facts than the index counted made the score take the log of a
negative number)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.idf import FTS5_IDF_FLOOR, bm25_idf, fts5_idf

ANY_COUNT = st.one_of(st.integers(), st.integers(min_value=-(2**64), max_value=2**64))


@given(documents=ANY_COUNT, holding=ANY_COUNT)
def test_any_pair_of_counts_gives_a_finite_weight_of_zero_or_more(
    documents: int, holding: int
) -> None:
    for weight in (bm25_idf(documents, holding), fts5_idf(documents, holding)):
        assert math.isfinite(weight)
        assert weight >= 0
    assert fts5_idf(documents, holding) >= FTS5_IDF_FLOOR
    assert bm25_idf(documents, holding) > 0


@given(documents=st.integers(min_value=1, max_value=10**9), data=st.data())
def test_sound_counts_give_the_textbook_formulas(documents: int, data: st.DataObject) -> None:
    holding = data.draw(st.integers(min_value=0, max_value=documents))
    ratio = (documents - holding + 0.5) / (holding + 0.5)
    assert bm25_idf(documents, holding) == math.log1p(ratio)
    assert fts5_idf(documents, holding) == max(math.log(ratio), FTS5_IDF_FLOOR)


@given(documents=st.integers(min_value=0, max_value=10**6), extra=st.integers(1, 10**6))
def test_a_term_in_more_documents_than_counted_weighs_as_one_in_all_of_them(
    documents: int, extra: int
) -> None:
    holding = documents + extra
    assert bm25_idf(documents, holding) == bm25_idf(holding, holding)
    assert fts5_idf(documents, holding) == FTS5_IDF_FLOOR


@given(documents=st.integers(min_value=2, max_value=10**6), data=st.data())
def test_a_rarer_term_never_weighs_less(documents: int, data: st.DataObject) -> None:
    rare = data.draw(st.integers(min_value=0, max_value=documents - 1))
    common = data.draw(st.integers(min_value=rare + 1, max_value=documents))
    assert bm25_idf(documents, rare) > bm25_idf(documents, common)
    assert fts5_idf(documents, rare) >= fts5_idf(documents, common)
