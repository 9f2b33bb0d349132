"""An error's summary and frames name its type and where it was raised, never its message."""

from __future__ import annotations

import inspect

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain import errors
from eden_memory.domain.error_summary import description, frames, summary

KINDS = [
    kind
    for _, kind in inspect.getmembers(errors, inspect.isclass)
    if issubclass(kind, errors.EdenMemoryError)
    and kind not in (errors.MissingExtraError, errors.StaleEditError)  # messages built inside
] + [ValueError, KeyError, RuntimeError]


def raised(kind: type[Exception], message: str) -> Exception:
    try:
        raise kind(message)
    except Exception as error:
        return error


@given(st.sampled_from(KINDS), st.text())
def test_the_summary_and_the_frames_do_not_depend_on_the_message(
    kind: type[Exception], said: str
) -> None:
    error, other = raised(kind, said), raised(kind, "something else")
    assert summary(error) == summary(other)
    assert frames(error) == frames(other)


def test_a_summary_is_the_type_and_the_class_description() -> None:
    error = raised(errors.InvalidLLMOutputError, "the answer said: my code is 4417")
    assert summary(error) == (
        "InvalidLLMOutputError: The model's answer cannot be used: refused, truncated, "
        "malformed or off-schema."
    )


def test_a_class_without_a_docstring_takes_its_nearest_base_description() -> None:
    class Undocumented(errors.ProviderError):
        pass

    assert description(Undocumented("x")) == "An LLM or embedding provider failed."


def test_the_frames_say_where_the_error_was_raised() -> None:
    shown = frames(raised(errors.StoreError, "secret"))
    assert shown.startswith("Traceback (most recent call last):")
    assert f'File "{__file__}"' in shown
    assert "in raised" in shown
    assert shown.endswith("StoreError: The store failed or refused an operation.")
