"""The pieces both providers share: batching, output checks, keys."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from eden_memory.adapters.providers_common import (
    api_key_from,
    batches,
    token_bound,
    validated,
)
from eden_memory.domain.errors import InvalidLLMOutputError, ProviderAuthError
from tests.providers.schemas import EXPECTED, GOOD, MALFORMED, OFF_SCHEMA, Facts


class Blob(BaseModel):
    content: str


@given(
    texts=st.lists(st.text(max_size=30), max_size=60),
    max_items=st.integers(min_value=1, max_value=10),
    max_tokens=st.one_of(st.none(), st.integers(min_value=1, max_value=80)),
)
def test_batches_cover_every_text_once_in_order_within_the_limits(
    texts: list[str], max_items: int, max_tokens: int | None
) -> None:
    spans = batches(texts, max_items, max_tokens)

    assert [i for span in spans for i in span] == list(range(len(texts)))
    for span in spans:
        assert 1 <= len(span) <= max_items
        tokens = sum(token_bound(texts[i]) for i in span)
        assert max_tokens is None or tokens <= max_tokens or len(span) == 1


def test_the_token_bound_counts_bytes_so_it_never_undercounts() -> None:
    assert token_bound("tea") == 3
    assert token_bound("thé") == 4
    assert token_bound("") == 1


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        (None, "empty answer"),
        ("  ", "empty answer"),
        (MALFORMED, "malformed JSON"),
        ("[" * 5000, "malformed JSON"),  # nested too deep for json.loads (RecursionError)
        (OFF_SCHEMA, r"violates the schema Facts \(2 error\(s\)\): facts: .*complete: Field"),
    ],
)
def test_unusable_output_says_what_is_wrong(text: str | None, complaint: str) -> None:
    with pytest.raises(InvalidLLMOutputError, match=complaint):
        validated(text, Facts, "Test")


def test_an_answer_over_the_bound_is_refused_before_it_is_parsed() -> None:
    # Malformed past the bound: were it parsed, the error would be about JSON, not length.
    huge = GOOD + "[" * 300_000
    with pytest.raises(InvalidLLMOutputError, match=f"{len(huge)} characters, over the bound"):
        validated(huge, Facts, "Test", max_chars=262_144)
    assert validated(GOOD, Facts, "Test", max_chars=len(GOOD)) == EXPECTED


def test_valid_output_is_the_schema_value() -> None:
    assert validated(GOOD, Facts, "Test") == EXPECTED


def test_raw_line_breaks_inside_a_string_are_read_as_escaped_ones() -> None:
    # As Qwen2.5-1.5B answered a consolidation: the blob's lines broken inside the string
    # (a real line break and tab in the JSON text, which strict JSON refuses).
    answer = '{"content": "Work:\n- Exam on 24 May.\tsoon"}'
    assert validated(answer, Blob, "Test") == Blob(content="Work:\n- Exam on 24 May.\tsoon")
    with pytest.raises(InvalidLLMOutputError, match="violates the schema Blob"):
        validated('{"text": "a\nb"}', Blob, "Test")
    with pytest.raises(InvalidLLMOutputError, match="malformed JSON"):
        validated('{"content": "a\nb"', Blob, "Test")


def test_an_explicit_key_wins_then_the_variables_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SECOND", "from-second")
    assert api_key_from("explicit", ("FIRST", "SECOND"), "Test") == "explicit"
    assert api_key_from(None, ("FIRST", "SECOND"), "Test") == "from-second"
    monkeypatch.setenv("FIRST", " from-first ")
    assert api_key_from(None, ("FIRST", "SECOND"), "Test") == "from-first"


def test_no_key_anywhere_names_every_variable_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIRST", raising=False)
    monkeypatch.delenv("SECOND", raising=False)
    with pytest.raises(ProviderAuthError, match="Test needs an API key: set FIRST or SECOND"):
        api_key_from("", ("FIRST", "SECOND"), "Test")
