from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import MAX_ID_LENGTH, check_id, check_id_list, check_optional_id
from eden_memory.domain.scopes import ScopeKey, check_key
from tests.unit.domain.builders import PROPERTY


@pytest.mark.parametrize(
    "value",
    ["u1", "user@example.com", "agent:support/eu", "a+b=c", "Ünïcode_ид", "x" * MAX_ID_LENGTH],
)
def test_a_short_printable_string_is_a_valid_id(value: str) -> None:
    assert check_id(value) == value


@pytest.mark.parametrize(
    "value", [{"$ne": 1}, {"$gt": ""}, ["u1"], 1, 1.5, None, b"u1", ("u1",), True]
)
def test_anything_but_a_string_is_refused(value: object) -> None:
    with pytest.raises(InvalidInputError, match="must be a string"):
        check_id(value, "user_id")


@pytest.mark.parametrize(
    "value",
    ["", "x" * (MAX_ID_LENGTH + 1), "$ne", "a b", "a\n", "\nu1", "u1\r", "a\x00", "{}", "a;b"],
)
def test_empty_long_or_operator_like_strings_are_refused(value: str) -> None:
    with pytest.raises(InvalidInputError, match="not valid"):
        check_id(value)


@PROPERTY
@given(st.text(max_size=MAX_ID_LENGTH + 20))
def test_an_accepted_id_is_short_and_has_no_space_or_operator(value: str) -> None:
    try:
        accepted = check_id(value)
    except InvalidInputError:
        return
    assert accepted == value
    assert 1 <= len(value) <= MAX_ID_LENGTH
    assert not any(ch.isspace() for ch in value)
    assert "$" not in value
    assert "{" not in value


@PROPERTY
@given(
    st.one_of(
        st.none(),
        st.integers(),
        st.floats(),
        st.binary(),
        st.lists(st.text()),
        st.dictionaries(st.text(), st.integers()),
    )
)
def test_no_non_string_is_ever_accepted(value: object) -> None:
    with pytest.raises(InvalidInputError):
        check_id(value)


def test_none_is_no_id_where_an_id_is_optional() -> None:
    assert check_optional_id(None, "user_id") is None
    assert check_optional_id("u1", "user_id") == "u1"
    with pytest.raises(InvalidInputError, match="user_id"):
        check_optional_id({"$ne": 1}, "user_id")


@pytest.mark.parametrize("values", ["alice", b"alice", {"alice": 1}, 7, None])
def test_a_single_string_or_mapping_is_not_a_list_of_ids(values: object) -> None:
    with pytest.raises(InvalidInputError, match="user_ids must be a list of ids"):
        check_id_list(values, "user_ids", "user_id")


@PROPERTY
@given(st.lists(st.one_of(st.text(max_size=20), st.integers(), st.none()), max_size=5))
def test_a_list_of_ids_is_accepted_iff_every_id_is(values: list[object]) -> None:
    if any(_refused(v) for v in values):
        with pytest.raises(InvalidInputError, match="user_id"):
            check_id_list(values, "user_ids", "user_id")
    else:
        assert check_id_list(values, "user_ids", "user_id") == values


def _refused(value: object) -> bool:
    try:
        check_id(value)
    except InvalidInputError:
        return True
    return False


@pytest.mark.parametrize("value", [{"scope": "user"}, "user:nova:alice", None, ("user", "nova")])
def test_only_a_scope_key_is_a_scope_key(value: object) -> None:
    with pytest.raises(InvalidInputError, match="key must be a ScopeKey"):
        check_key(value)
    assert check_key(ScopeKey.agent("nova")) == ScopeKey.agent("nova")
