"""A model's "fact" that is a message or the agent's own voice is refused, with why.

The examples are what Qwen2.5-1.5B produced through the pipeline (issue 15), on the demo's
messages: a message kept whole, the agent's lines, the user's worry mixed with the agent's
words. Good facts of the same conversation pass.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.fact_checks import (
    VERBATIM_MIN_WORDS,
    fact_problem,
    first_person,
    verbatim_message,
)
from eden_memory.domain.models import Message, Role
from tests.unit.domain.builders import PROPERTY

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
TURNS = (
    (Role.USER, "Hi, I'm Alice, the designer at Acme Studio. My email is alice@acme.example."),
    (Role.AGENT, "Nice to meet you, Alice. How can I help?"),
    (Role.USER, "We are organising the Aurora festival. The budget is 40000 euros."),
    (Role.USER, "Please keep your answers short, I read them on my phone."),
    (Role.AGENT, "I will keep the new date and venue in mind."),
    (Role.USER, "The main stage needs a 12 kW PA system."),
)
MESSAGES = [
    Message(id=f"m{i}", role=role, text=text, sent_at=T0) for i, (role, text) in enumerate(TURNS)
]


def test_a_message_kept_whole_is_refused_and_named() -> None:
    problem = fact_problem(TURNS[3][1], MESSAGES)
    assert problem is not None
    assert "repeats message 4" in problem


def test_a_message_with_its_punctuation_case_or_one_word_changed_is_still_a_copy() -> None:
    for copy in (
        "please keep your answers short; I read them on my phone",
        "Please keep your answers short, I read them on my tablet.",
        "Keep your answers short, I read them on my phone.",
    ):
        assert verbatim_message(copy, MESSAGES) == 4, copy


def test_a_short_message_may_be_a_fact_as_it_stands() -> None:
    # Nine words: "The main stage needs a 12 kW PA system." is a fine fact.
    assert fact_problem("The Aurora main stage needs a 12 kW PA system", MESSAGES) is None
    assert fact_problem("The main stage needs a 12 kW PA system.", MESSAGES) is None


def test_the_agents_line_kept_whole_is_refused_as_a_copy_first() -> None:
    problem = fact_problem(TURNS[4][1], MESSAGES, [MESSAGES[4]])
    assert problem is not None
    assert problem.startswith("repeats message 5")


def test_the_agent_speaking_in_the_first_person_is_refused() -> None:
    agent = [MESSAGES[4]]
    for line in (
        "I'm happy to help",
        "I will keep the date in mind",
        "Sure, I can draft the poster brief",
        "Glad I could help with the festival",
    ):
        problem = fact_problem(line, MESSAGES, agent)
        assert problem is not None, line
        assert problem.startswith("the agent speaks in the first person"), problem


def test_a_fact_mixing_the_users_worry_with_the_agents_words_is_refused() -> None:
    mixed = "Alice worries about the 40000 euro budget and I will help her keep it"
    problem = fact_problem(mixed, MESSAGES, [MESSAGES[2], MESSAGES[4]])
    assert problem is not None
    assert "first person ('I')" in problem


def test_the_users_own_words_are_refused_too_a_fact_names_who_it_is_about() -> None:
    assert first_person("My email is alice@acme.example") == "My"
    assert first_person("We are organising the Aurora festival") == "We"
    assert first_person("Let's draft the poster brief today") == "Let's"


def test_good_facts_of_the_same_conversation_pass() -> None:
    for fact in (
        "Alice's email is alice@acme.example",
        "Alice works at Acme Studio as a designer",
        "The Aurora festival budget is 40000 euros",
        "Alice sings 'I Will Survive' at every party",
        'Bob\'s favourite song is "We Are the Champions"',
        "Henry I of England founded Reading Abbey",
        "World War I ended in 1918",
        "The US office is in Boston",
        "Maria sees nature as a reset for our souls",  # a generic "our", not a speaker
        "The I/O budget of the server is 5 GB/s",
    ):
        assert fact_problem(fact, MESSAGES) is None, fact


WORDS = st.sampled_from(
    ["alice", "bob", "festival", "budget", "is", "the", "in", "lyon", "2026", "stage", "green"]
)


@PROPERTY
@given(st.lists(WORDS, min_size=VERBATIM_MIN_WORDS, max_size=30), st.booleans(), st.booleans())
def test_any_long_message_offered_back_as_a_fact_is_refused(
    words: list[str], upper: bool, stop: bool
) -> None:
    message = Message(id="m1", role=Role.USER, text=" ".join(words), sent_at=T0)
    offered = message.text.upper() if upper else message.text.capitalize()
    offered += "." if stop else ""
    assert verbatim_message(offered, [message]) == 1


@PROPERTY
@given(st.lists(WORDS, min_size=1, max_size=VERBATIM_MIN_WORDS - 1))
def test_a_message_shorter_than_the_threshold_is_never_called_a_copy(words: list[str]) -> None:
    message = Message(id="m1", role=Role.USER, text=" ".join(words), sent_at=T0)
    assert verbatim_message(message.text, [message]) is None


@PROPERTY
@given(st.lists(WORDS, min_size=1, max_size=20), st.sampled_from(["I", "I'm", "my", "We"]))
def test_first_person_inside_double_quotes_never_counts_outside_always_does(
    words: list[str], pronoun: str
) -> None:
    sentence = " ".join(words)
    assert first_person(f'Alice quoted "{pronoun} {sentence}"') is None
    assert first_person(f"{pronoun} {sentence}") == pronoun
