from __future__ import annotations

import inspect

import pytest

from eden_memory.domain import errors
from eden_memory.domain.errors import (
    EdenMemoryError,
    InvalidInputError,
    InvalidMemoryTextError,
    MissingExtraError,
    NotFoundError,
)

ERROR_CLASSES = [
    obj
    for _, obj in inspect.getmembers(errors, inspect.isclass)
    if obj.__module__ == errors.__name__
]


def test_every_error_descends_from_eden_memory_error() -> None:
    assert len(ERROR_CLASSES) >= 15
    for cls in ERROR_CLASSES:
        assert issubclass(cls, EdenMemoryError)


def test_the_module_docstring_draws_every_error() -> None:
    doc = errors.__doc__ or ""
    for cls in ERROR_CLASSES:
        assert cls.__name__ in doc


def test_bad_input_is_also_a_value_error() -> None:
    assert issubclass(InvalidInputError, ValueError)
    assert issubclass(InvalidMemoryTextError, InvalidInputError)


def test_not_found_is_a_key_error_with_a_readable_message() -> None:
    error = NotFoundError("fact f1 not found")
    assert isinstance(error, KeyError)
    assert str(error) == "fact f1 not found"
    assert str(NotFoundError()) == "not found"
    with pytest.raises(KeyError):
        raise error


def test_a_missing_extra_names_the_install_command() -> None:
    error = MissingExtraError("MongoDB store", "mongo", "pymongo")
    assert error.extra == "mongo"
    assert "eden-memory[mongo] extra" in str(error)
    assert 'pip install -e ".[mongo]"' in str(error)  # from the checkout: not on an index
    assert "\n" not in str(error)
    assert "pymongo" in str(error)
