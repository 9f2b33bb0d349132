"""A consolidated memory that echoes the prompt which asked for it is recognised.

The markers come from the prompt actually sent. The first examples use the consolidation
prompt Qwen2.5-1.5B answered in the baseline (issue 15), kept here as it was sent, and the
blobs it returned, which began with its ``<current_memory version="0">`` tag and its
"(empty: start the structure)" placeholder; the others use today's prompt, which has
neither.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.application.prompts.consolidation import consolidation_prompt
from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scaffolding import Scaffolding, echoed_scaffolding, scaffolding_of
from eden_memory.domain.scopes import ScopeKey
from eden_memory.domain.xml_context import escape
from tests.unit.domain.builders import PROPERTY, blob_content, line_text, make_reflection

KEY = ScopeKey.agent("aurora-planner")
NOTES = (
    "Current project: organising the Aurora festival",
    "The festival moves to June 14 at the Lyon docks",
)


def baseline_prompt(current: str, notes: Sequence[str]) -> str:
    """The parts of the baseline consolidation prompt (system and prompt) the model echoed."""
    body = escape(current) if current else "(empty: start the structure)"
    listed = "\n".join(f"- {escape(n)}" for n in notes)
    return (
        "Rules:\n- Invent nothing: every statement must come from the current text or the notes.\n"
        "This section is the agent's own memory, shared across all its conversations.\n\n"
        f'<current_memory version="0">\n{body}\n</current_memory>\n\n'
        f"<new_notes>\n{listed}\n</new_notes>\n\n"
        'Answer as JSON: {"content": "the new memory text"}'
    )


def scaffold(current: str = "", notes: tuple[str, ...] = NOTES) -> Scaffolding:
    return scaffolding_of(baseline_prompt(current, notes), [current, *notes])


def today(current: str = "", notes: tuple[str, ...] = NOTES) -> Scaffolding:
    """The markers of the consolidation prompt as it is sent now."""
    memory = ConsolidatedMemory.empty(KEY, 400).evolve(content=current)
    reflections = [make_reflection(f"r{i}", KEY, content=n) for i, n in enumerate(notes)]
    system, prompt = consolidation_prompt(memory, reflections)
    return scaffolding_of(f"{system}\n{prompt}", [current, *notes])


def test_the_blob_the_real_model_returned_echoes_the_tag_and_the_placeholder() -> None:
    answer = (
        '<current_memory version="0">\n(empty: start the structure)\n</current_memory>\n'
        "Projects:\n- Organising the Aurora festival, June 14 at the Lyon docks"
    )
    assert echoed_scaffolding(answer, scaffold()) == (
        "(empty: start the structure)",
        "<current_memory>",
    )


def test_the_placeholder_alone_the_notes_block_and_the_json_example_are_echoes() -> None:
    assert echoed_scaffolding("(Empty: start the structure.)\n- x", scaffold()) == (
        "(empty: start the structure)",
    )
    assert echoed_scaffolding("<new_notes>\n- Aurora festival", scaffold()) == ("<new_notes>",)
    assert echoed_scaffolding("&lt;new_notes&gt; Aurora", scaffold()) == ("<new_notes>",)
    assert echoed_scaffolding("the new memory text", scaffold()) == ("the new memory text",)


def test_an_echoed_instruction_is_an_echo() -> None:
    answer = "Invent nothing: every statement must come from the current text or the notes."
    assert echoed_scaffolding(answer, scaffold()) != ()


def test_a_well_formed_blob_is_not_an_echo() -> None:
    answer = (
        "Projects:\n- Aurora festival: June 14, Lyon docks; budget 45000 euros\n"
        "Style:\n- Short answers for Alice; exact figures for Bob"
    )
    assert echoed_scaffolding(answer, scaffold()) == ()


def test_what_the_stored_text_itself_says_is_never_a_marker() -> None:
    current = "Tools:\n- wraps transcripts in <new_notes> tags\n- (empty: start the structure)"
    markers = scaffold(current)
    assert "new_notes" not in markers.tags
    assert echoed_scaffolding(current, markers) == ()
    # The tag the prompt puts around the memory is still ours.
    assert echoed_scaffolding("<current_memory>\n" + current, markers) == ("<current_memory>",)


def test_a_changed_prompt_is_checked_by_its_own_words() -> None:
    prompt = "<memory_draft>\n(nothing yet)\n</memory_draft>\nMerge the notes below, newest wins."
    markers = scaffolding_of(prompt, [])
    assert markers.tags == frozenset({"memory_draft"})
    assert echoed_scaffolding("(nothing yet)\n- a note", markers) == ("(nothing yet)",)
    assert echoed_scaffolding("Merge the notes below, newest wins.", markers) != ()
    # A short placeholder counts only as a line of its own.
    assert echoed_scaffolding("Alice had nothing yet to say", markers) == ()


def test_a_short_example_of_the_prompt_is_an_echo_only_as_a_whole_line() -> None:
    prompt = "Example of a good memory:\n- Prefers short answers\n<notes>\n- x\n</notes>"
    markers = scaffolding_of(prompt, ["x"])
    assert echoed_scaffolding("- Prefers short answers", markers) == ("- Prefers short answers",)
    assert echoed_scaffolding("- Alice prefers short answers and bullet lists", markers) == ()
    assert echoed_scaffolding("Alice wants the new memory text to be short", scaffold()) == ()


notes = st.lists(line_text(), min_size=1, max_size=4)


@PROPERTY
@given(blob_content(), notes, st.data())
def test_an_answer_made_of_the_stored_lines_it_was_shown_is_never_an_echo(
    current: str, texts: list[str], data: st.DataObject
) -> None:
    markers = scaffold(current, tuple(texts))
    lines = [line for text in (current, *texts) for line in text.splitlines()]
    picked = data.draw(st.lists(st.sampled_from(lines), max_size=6)) if lines else []
    assert echoed_scaffolding("\n".join(picked), markers) == ()


@PROPERTY
@given(notes, st.sampled_from(["current_memory", "new_notes"]), st.text(max_size=100))
def test_a_tag_of_the_prompt_anywhere_in_the_answer_is_an_echo(
    texts: list[str], tag: str, rest: str
) -> None:
    markers = scaffold("", tuple(texts))
    if tag not in markers.tags:  # a note itself spelled the tag: then it is not ours alone
        assert any(tag in t.casefold() for t in texts)
        return
    assert f"<{tag}>" in echoed_scaffolding(f"{rest}<{tag}>{rest}", markers)


def test_todays_prompt_has_no_tag_and_no_placeholder_to_echo() -> None:
    markers = today()
    assert markers.tags == frozenset()
    assert not any(p.text.startswith("(") for p in markers.phrases)


def test_echoes_of_todays_prompt_are_echoes() -> None:
    opening = "The section has no text yet. Write it from these notes, oldest first:"
    assert echoed_scaffolding(f"{opening}\n- Aurora festival", today()) == (opening,)
    assert echoed_scaffolding("the new text of the section", today()) == (
        "the new text of the section",
    )
    # The worked example's lines, copied as if they were the answer.
    assert echoed_scaffolding("Work:\n- Ana's nursing exam is on 24 May.", today()) != ()
    assert echoed_scaffolding("- Ana moved her exam to 24 May.", today()) != ()


def test_a_well_formed_blob_is_not_an_echo_of_todays_prompt() -> None:
    answer = (
        "Work:\n- Aurora festival: June 14, Lyon docks; budget 45000 euros\n"
        "Style:\n- Short answers for Alice; exact figures for Bob"
    )
    assert echoed_scaffolding(answer, today()) == ()
    assert echoed_scaffolding(answer, today("Work:\n- Aurora festival in May")) == ()


@PROPERTY
@given(blob_content(), notes, st.data())
def test_an_answer_of_the_shown_lines_is_never_an_echo_of_todays_prompt(
    current: str, texts: list[str], data: st.DataObject
) -> None:
    markers = today(current, tuple(texts))
    lines = [line for text in (current, *texts) for line in text.splitlines()]
    picked = data.draw(st.lists(st.sampled_from(lines), max_size=6)) if lines else []
    assert echoed_scaffolding("\n".join(picked), markers) == ()
