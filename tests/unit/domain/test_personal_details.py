"""A user's identifying details are found in a text filed under the agent (issue 40)."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.models import Message, Role
from eden_memory.domain.personal_details import (
    agent_scope_problem,
    names_a_user,
    people_of,
    personal_details,
    place_agent_text,
)
from eden_memory.domain.scopes import Scope
from tests.unit.domain.builders import PROPERTY, T0

FOUND = {
    "Alice is the designer at Acme Studio and her email address is alice@acme.example": (
        "an email address"
    ),
    "Bob's phone is +33 6 12 34 56 78": "a phone number",
    "Call (555) 123-4567 after six": "a phone number",
    "reachable on 555-123-4567": "a phone number",
    "mobile: 06 12 34 56 78": "a phone number",
    "The agent remembers that Alice ordered #4417": "an account, order or ticket number",
    "order 4417 was delayed": "an account, order or ticket number",
    "ticket no. AB-1234 is open": "an account, order or ticket number",
    "IBAN FR76 3000 6000 0112 3456 7890 189": "an account, order or ticket number",
    "lives at 221B Baker Street": "a street address",
    "moved to 12 rue de la Paix": "a street address",
    "the office is at Hauptstraße 5": "a street address",
    "see https://twitter.com/alice_b for updates": "a profile link",
    "her page is https://example.org/users/alice": "a profile link",
    "ping @alice_b on the forum": "a user handle",
}
ORDINARY = (
    "The Aurora festival budget is 45000 euros",
    "The festival moves to June 14 and the venue is the Lyon docks",
    "The main stage needs a 12 kW PA system",
    "Give training plans week by week",
    "The #1 priority is the poster",
    "12 people came to the rehearsal in the way we planned",
    "Ticket prices are 45 euros",
    "The venue holds 1,200 people",
    "Send the brief via email before Friday",
    "The 2024-03-13 meeting moved",
)


def test_every_kind_of_identifying_detail_is_found() -> None:
    for text, kind in FOUND.items():
        assert kind in personal_details(text), text


def test_ordinary_agent_memory_holds_no_identifying_detail() -> None:
    for text in ORDINARY:
        assert personal_details(text, ["alice", "bob"]) == (), text


def test_a_capitalised_word_naming_a_user_counts_but_a_lower_case_one_does_not() -> None:
    assert names_a_user("Alice's budget was approved", ["alice"])
    assert names_a_user("Ask Smith first", ["Alice Smith"])
    assert not names_a_user("you will see", ["will"])
    assert not names_a_user("The agent gives plans week by week", ["alice", "u_1"])
    assert names_a_user("Ask Alice", ["alice.smith@example.com"])
    assert not names_a_user("Example: give plans weekly", ["alice.smith@example.com"])


def test_the_reason_names_the_kind_never_the_detail() -> None:
    why = agent_scope_problem("Alice's email is alice@acme.example", ["alice"])
    assert why is not None
    assert "email address" in why
    assert "a user's name" in why
    assert "alice@acme.example" not in why


def test_an_identifying_note_moves_to_the_user_when_one_user_is_active_else_nowhere() -> None:
    text = "Bob's phone number is +33 6 12 34 56 78"
    assert place_agent_text(text, ["bob"], user_scope_active=True).scope is Scope.USER
    refused = place_agent_text(text, ["bob"], user_scope_active=False)
    assert refused.scope is None
    assert refused.why
    assert place_agent_text("Aurora moves to June 14", ["bob"], True).scope is Scope.AGENT


def test_the_people_of_a_conversation_are_its_users_and_its_user_authors() -> None:
    said = [
        Message(id="1", role=Role.USER, text="hi", sent_at=T0, author_id="u1", author_name="Al"),
        Message(id="2", role=Role.AGENT, text="hello", sent_at=T0, author_id="nova"),
    ]
    assert people_of(said, ["u1", "u2"]) == ("u1", "u2", "Al")


_LOCAL = st.text(string.ascii_lowercase + string.digits + "._", min_size=1, max_size=12)
_DOMAIN = st.text(string.ascii_lowercase, min_size=2, max_size=10)
_NAME = st.text(string.ascii_lowercase, min_size=3, max_size=10).map(str.capitalize)


@PROPERTY
@given(_LOCAL, _DOMAIN, st.sampled_from(["com", "example", "fr"]), st.sampled_from(ORDINARY))
def test_an_email_anywhere_in_a_text_is_found(local: str, domain: str, tld: str, text: str) -> None:
    email = f"{local.strip('.') or 'x'}@{domain}.{tld}"
    assert "an email address" in personal_details(f"{text}; reach them at {email}")


@PROPERTY
@given(st.lists(st.integers(10, 99), min_size=4, max_size=5), st.integers(1, 99))
def test_an_international_phone_number_is_found(groups: list[int], country: int) -> None:
    phone = f"+{country} " + " ".join(str(g) for g in groups)
    assert "a phone number" in personal_details(f"The contact is {phone}.")


@PROPERTY
@given(st.integers(100, 99_999_999), st.sampled_from(["order", "ticket", "account", "booking"]))
def test_an_order_or_account_number_is_found(number: int, word: str) -> None:
    assert personal_details(f"{word} {number} needs a refund") == (
        "an account, order or ticket number",
    )


@PROPERTY
@given(_NAME, st.sampled_from(ORDINARY))
def test_a_session_users_name_in_a_note_is_found_wherever_it_stands(name: str, text: str) -> None:
    assert "a user's name" in personal_details(f"{text}, says {name}", [name.lower()])
    assert "a user's name" in personal_details(f"{name}'s view: {text}", [name])
