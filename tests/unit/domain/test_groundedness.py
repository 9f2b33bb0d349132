"""A consolidated text keeps no specific that none of its inputs gave (issue 40)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.blob_checks import blob_problem
from eden_memory.domain.groundedness import names_in, numbers_in, ungrounded_specifics
from eden_memory.domain.scopes import Scope
from tests.unit.domain.builders import PROPERTY

NOTES = (
    "Current project: organising the Aurora festival, budget 40000 euros",
    "Aurora budget corrected to 45,000 euros",
    "Aurora festival date moved to June 14; the venue is the Lyon docks",
    "The main stage needs a 12 kW PA system",
)


def test_the_invented_budget_of_the_local_model_is_refused() -> None:
    found = ungrounded_specifics("Projects:\n- Aurora festival, budget $50,000", NOTES)
    assert "50,000" in found
    assert "$" in found


def test_the_same_number_written_otherwise_is_grounded() -> None:
    for written in ("45000 euros", "45,000 EUR", "45 000 €", "45k euros", "€45,000"):
        assert ungrounded_specifics(f"Budget: {written}", NOTES) == (), written


def test_a_name_or_an_identifier_no_input_holds_is_refused() -> None:
    assert ungrounded_specifics("The festival moves to the Paris arena", NOTES) == ("Paris",)
    assert ungrounded_specifics("Contact: ops@aurora.example", NOTES) == ("ops@aurora.example",)
    assert ungrounded_specifics("Order #4417 ships", NOTES) == ("#4417",)


def test_a_merge_of_the_inputs_with_headings_and_new_order_is_grounded() -> None:
    merged = (
        "Projects:\n- Aurora Festival on June 14 at the Lyon Docks.\n"
        "- Budget: 45,000 euros.\nTechnical:\n- Main stage: 12 kW PA system.\n1. Poster first."
    )
    assert ungrounded_specifics(merged, NOTES) == ()


def test_names_are_capitalised_words_inside_a_sentence_only() -> None:
    assert names_in("Style:\n- Short answers. Ask Bob (Lyon) first; Then go") == ["Bob"]


def test_numbers_are_read_by_value() -> None:
    assert numbers_in("45,000 and 45 000 and 45k and 1.5k and 12th") == numbers_in("45000 1500 12")


def test_an_agent_blob_naming_a_user_or_holding_an_email_is_refused() -> None:
    blob = "Alice is the designer at Acme Studio and her email address is alice@acme.example"
    why = blob_problem(Scope.AGENT, blob, [blob], ["alice", "bob"])
    assert why is not None
    assert "email address" in why
    assert blob_problem(Scope.USER, blob, [blob], ["alice"]) is None  # her own memory


def test_a_blob_with_invented_specifics_is_refused_in_any_scope() -> None:
    for scope in Scope:
        why = blob_problem(scope, "Budget: $50,000", NOTES)
        assert why is not None
        assert "50,000" in why


_WORDS = st.sampled_from(["budget", "venue", "stage", "poster", "team", "plan", "date"])


@PROPERTY
@given(st.lists(st.integers(0, 10**7), min_size=1, max_size=5), _WORDS)
def test_numbers_the_inputs_hold_are_grounded_however_they_are_grouped(
    values: list[int], word: str
) -> None:
    given_text = " ".join(f"{word} {v}" for v in values)
    written = " ".join(f"{word} {v:,}" for v in values)
    assert ungrounded_specifics(written, [given_text]) == ()


@PROPERTY
@given(st.integers(0, 10**7), st.integers(0, 10**7), _WORDS)
def test_a_number_the_inputs_lack_is_always_refused(held: int, written: int, word: str) -> None:
    found = ungrounded_specifics(f"The {word} is {written:,}", [f"The {word} is {held}"])
    assert (found == ()) == (held == written)
