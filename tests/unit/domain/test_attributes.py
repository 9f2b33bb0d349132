"""Two facts giving one attribute of one subject different values are an update; facts of
another subject, another attribute or the same value are not."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.attributes import claim, same_attribute
from eden_memory.domain.conflicts import Said, newer_first, stems
from tests.unit.domain.builders import PROPERTY, T0

UPDATES = [
    ("Maya Okafor lives in Portland.", "Maya Okafor moved to Seattle and now rents in Ballard."),
    (
        "Tom Reyes's phone number is 512-555-0110.",
        "Tom Reyes switched to a new phone number, 512-555-0178.",
    ),
    (
        "Jae Kim's account admin email is jae@kim.com.",
        "Jae Kim changed the account admin email to it@kim.com.",
    ),
    (
        "Maya Okafor works as a product designer at Figma.",
        "Maya Okafor left Figma and started as head of design at Canva.",
    ),
    ("Nimbus Pro costs 9.99 dollars a month.", "Nimbus Pro now costs 11.99 dollars a month."),
    (
        "Kwame's certificate exam is on 20 August.",
        "Kwame's certificate exam was moved to 15 October.",
    ),
    ("I drive a Honda Civic.", "I sold my Honda and now drive a Tesla Model 3."),
]
NOT_UPDATES = [
    ("My cousin Ben lives in Austin.", "My roommate Ben lives in Portland."),  # two people
    ("Maya Okafor lives in Portland.", "Maya Okafor's mother, Ruth, lives in Lagos."),
    ("Maya Okafor works as a designer at Figma.", "Maya Okafor's work laptop is a MacBook Pro."),
    ("Maya Okafor drives a Honda Fit.", "Maya Okafor's car insurance is with Progressive."),
    ("Jae Kim prefers email to phone.", "Jae Kim's account admin email is jae@kim.com."),
    ("Jon is working on a dance studio.", "Jon is working on promoting his business."),
    ("Maya Okafor lives in Portland.", "Maya Okafor lives in Portland, Oregon."),  # more said
    ("Alice lives in Lyon.", "Bob lives in Nice."),
]


def test_a_move_a_new_phone_a_new_job_and_a_new_price_are_updates() -> None:
    for older, newer in UPDATES:
        assert same_attribute(claim(older), claim(newer)), (older, newer)


def test_namesakes_relatives_other_attributes_and_elaborations_are_not() -> None:
    for one, other in NOT_UPDATES:
        assert not same_attribute(claim(one), claim(other)), (one, other)


def test_a_claim_reads_the_subject_the_attribute_and_the_values() -> None:
    read = claim("Maya Okafor's phone number is 503-555-0147.")
    assert read.subject == {"maya", "okafor"}
    assert read.attributes == {"phone"}
    assert read.values == {"503-555-0147"}
    assert claim("My sister Anna lives in Chicago.").subject == {"i", "sister", "anna"}


SUBJECTS = ("Alice", "Bob Smith", "My sister Anna", "I")
# A template per attribute ({} is the value); the last two name no attribute.
TEMPLATES = {
    "home": "{s} lives in {v}.",
    "phone": "{s}'s phone number is {v}.",
    "job": "{s} works at {v}.",
    "vehicle": "{s} drives a {v}.",
    "": "{s} collects {v}.",
    " ": "{s} likes {v}.",
}
VALUES = ("Portland", "Seattle", "Lagos", "Honda", "555-0100", "555-0199", "Figma")


@st.composite
def facts(draw: st.DrawFn) -> tuple[str, str, str, str]:
    """A fact written from parts: (text, subject, attribute, value)."""
    subject = draw(st.sampled_from(SUBJECTS))
    attribute = draw(st.sampled_from(sorted(TEMPLATES)))
    value = draw(st.sampled_from(VALUES))
    text = TEMPLATES[attribute].format(s=subject, v=value).replace("I's", "My")
    return text, subject, attribute, value


@PROPERTY
@given(facts(), facts())
def test_an_update_is_the_same_subject_and_attribute_with_another_value(
    one: tuple[str, str, str, str], other: tuple[str, str, str, str]
) -> None:
    expected = one[1:3] == other[1:3] and one[2].strip() != "" and one[3] != other[3]
    assert same_attribute(claim(one[0]), claim(other[0])) == expected


@PROPERTY
@given(st.one_of(st.text(max_size=60), facts().map(lambda f: f[0])), st.text(max_size=60))
def test_the_judgement_is_symmetric_and_never_pairs_a_fact_with_itself(a: str, b: str) -> None:
    assert same_attribute(claim(a), claim(b)) == same_attribute(claim(b), claim(a))
    assert not same_attribute(claim(a), claim(a))


@PROPERTY
@given(
    st.lists(st.tuples(facts(), st.sampled_from(("user:a:1", "user:a:2"))), max_size=8),
    st.data(),
)
def test_marks_point_from_older_to_newer_of_one_owner_and_one_attribute(
    found: list[tuple[tuple[str, str, str, str], str]], data: st.DataObject
) -> None:
    days = data.draw(st.lists(st.integers(0, 999), min_size=len(found), max_size=len(found)))
    results = [
        Said(T0 + timedelta(days=d), stems(f[0]), (), None, owner, claim(f[0]))
        for (f, owner), d in zip(found, days, strict=True)
    ]
    settled = newer_first(results, frozenset(), 2.0)
    assert sorted(settled.order) == list(range(len(results)))
    for lost, won in settled.newer.items():
        assert lost != won
        assert results[won].formed_at > results[lost].formed_at
        assert results[won].owner == results[lost].owner
        (old, _), (new, _) = found[lost], found[won]
        assert old[1:3] == new[1:3]
        assert old[2].strip() != ""


def test_a_question_about_the_past_marks_no_update_and_keeps_the_order() -> None:
    old, new = UPDATES[0]
    results = [Said(T0, stems(old), (), None, "u", claim(old))]
    results.append(Said(T0 + timedelta(days=90), stems(new), (), None, "u", claim(new)))
    assert newer_first(results, frozenset(), 2.0).newer == {0: 1}
    past = newer_first(results, frozenset(), 2.0, by_time=False)
    assert (past.order, past.newer) == ([0, 1], {})


def test_a_question_naming_a_value_of_the_older_only_keeps_it_first_unmarked() -> None:
    old, new = UPDATES[0]
    results = [Said(T0, stems(old), (), None, "u", claim(old))]
    results.append(Said(T0 + timedelta(days=90), stems(new), (), None, "u", claim(new)))
    asked = stems("Do I still live in Portland?")
    assert (newer_first(results, asked, 2.0).order, newer_first(results, asked, 2.0).newer) == (
        [0, 1],
        {},
    )
    assert newer_first(results, stems("Which city do I live in?"), 2.0).order == [1, 0]
