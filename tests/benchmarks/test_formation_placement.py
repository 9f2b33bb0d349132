"""Where formation filed things, read offline from a saved run: notes filed at two levels,
facts that say what facts are not."""

from __future__ import annotations

from typing import Any

from benchmarks.formation_placement import filed_twice, not_a_fact, placement_stats, same_note


def test_a_note_restated_at_another_level_is_the_same_note() -> None:
    assert same_note(
        "Caroline expresses interest in counseling and mental health.",
        "Caroline is interested in counseling and mental health.",
    )
    assert not same_note(
        "Caroline expresses interest in counseling.", "Melanie paints sunrises over lakes."
    )
    assert not same_note("the and of", "the and of")  # no content words: nothing restated


def test_only_notes_with_a_twin_at_another_level_are_filed_twice() -> None:
    notes = [
        ("user", "Melanie paints sunrises over lakes."),
        ("session", "Melanie paints sunrises over lakes, which she finds inspiring."),
        ("session", "Caroline still needs the agency's address."),
        ("user", "Caroline wants short answers."),
        ("user", "Caroline wants short answers, always."),  # same level: not two levels
    ]
    assert filed_twice(notes) == notes[:2]


def test_what_facts_are_not_is_flagged_by_kind() -> None:
    assert not_a_fact("Ana wants short answers from the agent.") == ["wants of the agent"]
    assert not_a_fact("Bob thinks the festival should move to June.") == ["opinion"]
    assert not_a_fact("Melanie shares a photo of a painting.") == ["the conversation's doing"]
    assert not_a_fact("Melanie is swamped with the kids today.") == ["passing state"]
    assert not_a_fact("Ana adopted a cat named Miso on Sunday 10 March 2024.") == []
    assert not_a_fact("Joanna likes romantic dramas.") == []  # a lasting taste is a fact


def test_a_saved_run_is_scored_with_the_texts_to_quote() -> None:
    formed: dict[str, Any] = {
        "runs": [
            {"notes": [["user", "Ana runs on Sundays."], ["session", "Ana runs on Sundays."]]},
            {"notes": [["user", "Ana plans a half marathon."]]},
            {},  # a run saved before notes were kept
        ],
        "facts": [
            {"content": "Ana is a nurse in Porto."},
            {"content": "Ana thinks Porto is too hilly."},
        ],
    }
    stats = placement_stats(formed)
    assert stats["notes"] == 3
    assert stats["notes_at_several_levels"] == 2
    assert stats["notes_filed_twice"] == [
        "[user] Ana runs on Sundays.",
        "[session] Ana runs on Sundays.",
    ]
    assert stats["facts_flagged_not_facts"] == 1
    assert stats["flagged_by_kind"] == {"opinion": 1}
    assert stats["facts_flagged"] == ["Ana thinks Porto is too hilly. (opinion)"]
