"""A pydantic refusal as one line naming the field: never pydantic's essay with its links."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator

from eden_memory.domain.problems import MOST_CHARS, one_line, reason, where


class Query(BaseModel):
    queries: str | list[str] = Field(max_length=3)  # two branches: a str and a list
    top_k: int = Field(10, le=50)
    messages: list[dict[str, int]] = []
    name: str = "x"

    @field_validator("name")
    @classmethod
    def _plain(cls, value: str) -> str:
        if "\n" in value:
            raise ValueError("a name is one line,\nnot two")
        return value


def _refusal(data: object) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        Query.model_validate(data)
    return caught.value


def test_one_problem_is_the_field_and_what_is_wrong() -> None:
    text = one_line(_refusal({"queries": "a", "top_k": 10**30}))
    assert text == "top_k: Input should be less than or equal to 50"


def test_a_union_reports_the_first_branch_only_and_no_branch_tags() -> None:
    text = one_line(_refusal({"queries": ["q"] * 5}))
    assert text == "queries: Value should have at most 3 items after validation, not 5"


def test_nested_places_read_as_paths_and_extra_problems_are_counted() -> None:
    error = _refusal({"top_k": "x", "messages": [{"a": 1}, {"b": "no"}], "name": "a\nb"})
    text = one_line(error, most=2)
    assert text.startswith("queries: Field required; top_k: Input should be a valid integer")
    assert text.endswith("(and 2 more)")
    full = one_line(error)
    assert "messages[1].b: Input should be a valid integer" in full or "(and 1 more)" in full


@pytest.mark.parametrize(
    "data",
    [
        {"queries": 5, "top_k": "x", "name": "a\nb"},
        {"queries": ["x"] * 9, "messages": "no"},
        {"queries": "a", "name": "é\n" * 1000},
        [],
    ],
)
def test_every_refusal_is_one_short_line_without_links(data: object) -> None:
    text = one_line(_refusal(data))
    assert "\n" not in text
    assert "errors.pydantic.dev" not in text
    assert "For further information" not in text
    assert "Value error, " not in text
    assert 0 < len(text) <= MOST_CHARS


def test_a_custom_validators_message_loses_pydantics_prefix() -> None:
    assert one_line(_refusal({"queries": "a", "name": "a\nb"})) == (
        "name: a name is one line, not two"
    )


def test_reason_reads_any_error_in_one_line() -> None:
    assert reason(KeyError("kind")) == "no 'kind' field"
    assert reason(ValueError("two\nlines")) == "two lines"
    assert reason(_refusal({})) == "queries: Field required"


def test_where_reads_pydantics_locations() -> None:
    assert where(("messages", 0, "sent_at")) == "messages[0].sent_at"
    assert where(("queries", "list[constrained-str]", 2)) == "queries[2]"
    assert where(()) == ""
