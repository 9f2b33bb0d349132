"""Reading a provider's answer at the edge, quoting it safely, and checking its vectors."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from eden_memory.adapters.provider_answers import (
    EXCERPT_CHARS,
    Received,
    UnreadableAnswerError,
    excerpt,
    read_answer,
)
from eden_memory.adapters.vectors import unit_vectors
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidLLMOutputError, ProviderError


class Answer(BaseModel):
    text: str
    tokens: int


def received(body: bytes | str, content_type: str | None = "application/json") -> Received:
    return Received("Test", 200, content_type, body)


@given(st.binary(max_size=2000) | st.text(max_size=2000))
def test_an_excerpt_is_one_printable_line_of_bounded_length(body: bytes | str) -> None:
    quoted = excerpt(body)
    assert len(quoted) <= EXCERPT_CHARS
    assert quoted.isprintable()
    assert quoted == quoted.strip()


def test_an_excerpt_keeps_the_start_and_says_it_was_cut() -> None:
    assert excerpt("<p>\n\tbad\x1b[31m gateway</p>") == "<p> bad [31m gateway</p>"
    long = excerpt("x" * 1000)
    assert len(long) == EXCERPT_CHARS
    assert long.endswith("…")
    assert excerpt(b"ok \xff\xfe") == "ok \ufffd\ufffd"


def test_an_answer_of_the_right_shape_is_read() -> None:
    assert read_answer(Answer, received(b'{"text": "hi", "tokens": 3, "extra": []}')) == Answer(
        text="hi", tokens=3
    )


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"text": "\xff"}', "not UTF-8 (byte 0xff at 10)"),
        (b"   ", "an empty body"),
        (b"<html>", "not JSON (Expecting value"),
        (b"[" * 100_000, "not JSON"),
        (b'{"text": "hi"}', "tokens: Field required"),
        (b'{"text": 5, "tokens": 1}', "text: Input should be a valid string"),
        (b'{"text": 5}', "text: Input should be a valid string (and 1 more)"),
        (b"[]", "the answer: Input should be a valid dictionary"),
    ],
)
def test_an_answer_that_does_not_fit_is_an_unreadable_answer_saying_why(
    body: bytes, says: str
) -> None:
    with pytest.raises(UnreadableAnswerError) as caught:
        read_answer(Answer, received(body, "text/html"))
    message = str(caught.value)
    assert message.startswith("Test sent an unusable answer (HTTP 200, text/html): ")
    assert says in message
    assert "\n" not in message
    assert len(message) < 600


def test_an_empty_body_is_quoted_as_empty() -> None:
    error = received(b"", None).fault("an empty body")
    assert str(error) == "Test sent an unusable answer (HTTP 200): an empty body; body: (empty)"


def test_a_fault_may_be_invalid_output_and_may_quote_what_the_sdk_read() -> None:
    answer = Received("Test", 200, None, '{"candidates": []}', "the answer as the SDK read it")
    error = answer.fault("no text", InvalidLLMOutputError)
    assert isinstance(error, InvalidLLMOutputError)
    assert str(error).endswith('no text; the answer as the SDK read it: {"candidates": []}')


def test_vectors_are_scaled_to_unit_length_and_checked_against_the_space() -> None:
    space = EmbeddingSpace("m", 2)

    def fail(problem: str) -> ProviderError:
        return ProviderError(problem)

    assert unit_vectors([[3.0, 4.0]], 1, space, fail) == [[0.6, 0.8]]
    with pytest.raises(ProviderError, match="1 embeddings for 2 texts"):
        unit_vectors([[3.0, 4.0]], 2, space, fail)
    with pytest.raises(ProviderError, match="embedding 1 has 3 dimensions where m was asked for 2"):
        unit_vectors([[1.0, 0.0], [1.0, 2.0, 2.0]], 2, space, fail)
    for bad in ([0.0, 0.0], [math.nan, 1.0], [math.inf, 1.0]):
        with pytest.raises(ProviderError, match="embedding 0 cannot be normalized"):
            unit_vectors([bad], 1, space, fail)
