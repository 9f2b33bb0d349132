"""No sentence of today's prompts is stored as memory, whatever names are swapped in (issue 40).

Every example and instruction sentence of every prompt, its capitalised words (names, and
the example's places and months) replaced with random names, is caught by the check that
formation and consolidation apply; ordinary memories (LoCoMo's human-written observations,
when the data is present) are not.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.application.prompts.catalogue import prompt_catalogue, prompt_texts
from eden_memory.demo.script import SESSIONS
from eden_memory.domain.near_copies import (
    MIN_PLAIN_WORDS,
    content_words,
    masked_tokens,
    near_copies,
)
from eden_memory.domain.scaffolding import echoed_scaffolding, scaffolding_of

NOTHING: frozenset[str] = frozenset()
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")
# Every sentence of every prompt, as a reader splits them: by line and by sentence end.
PROMPT_SENTENCES = sorted(
    {
        s.strip(" -\"'{}[],")
        for text in prompt_texts()
        for line in text.splitlines()
        for s in re.split(r"(?<=[.!?])\s+", line)
        if len(masked_tokens(s) - {"\x00"}) >= MIN_PLAIN_WORDS
    }
)
_NAMES = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=10).map(str.capitalize)


def test_the_catalogue_holds_every_prompts_examples() -> None:
    texts = "\n".join(prompt_texts())
    for example in ("Ana wants answers in Portuguese.", "Ana still needs her half-marathon"):
        assert example in texts
    assert len(PROMPT_SENTENCES) > 80


@settings(max_examples=25, deadline=None)
@given(st.lists(_NAMES, min_size=1, max_size=3))
def test_every_prompt_sentence_with_names_swapped_is_caught(names: list[str]) -> None:
    catalogue = prompt_catalogue()
    for sentence in PROMPT_SENTENCES:
        swapped = _CAPITALISED.sub(lambda m: names[hash(m.group()) % len(names)], sentence)
        assert near_copies(swapped, catalogue, NOTHING), (sentence, swapped)


def test_the_reported_echoes_are_refused_by_the_formation_check() -> None:
    carried = ["We plan the Aurora festival."]
    scaffold = scaffolding_of("a prompt of another call", carried, prompt_catalogue())
    for echo in (
        "Alice wants answers in Portuguese.",
        "Alice still needs her half-marathon plan for October.",
        "The section has no text yet.",
    ):
        assert echoed_scaffolding(echo, scaffold), echo


# Beside the repository, as the benchmarks find it (CI gets a copy of shared/ there too).
LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev.json"


def locomo_observations() -> list[str]:
    """LoCoMo's human-written observations, when the shared data is on this machine."""
    if not LOCOMO.is_file():
        return []
    return [
        said[0]
        for sample in json.loads(LOCOMO.read_text())
        for session in sample["observation"].values()
        for lines in session.values()
        for said in lines
    ]


# The demo's notes, each beside the conversation it came from (eden_memory/demo/script.py).
DEMO_NOTES = (
    "Alice wants short answers; she reads on her phone",
    "Bob wants detailed technical answers with exact figures",
    "Current project: organising the Aurora festival",
    "Aurora festival date moved to June 14",
    "Open point: Bob shares his rider with Alice",
    "Alice now prefers longer, detailed answers",
    "Goal today: draft the poster brief",
)


def test_locomos_observations_are_not_near_copies_even_with_nothing_carried() -> None:
    catalogue = prompt_catalogue()
    caught = [m for m in locomo_observations() if near_copies(m, catalogue, NOTHING)]
    # Measured: none of the 1,210 (docs/decisions.md, near-copies of the prompts).
    assert caught == []


def test_the_demos_notes_are_not_near_copies_beside_their_conversation() -> None:
    said = frozenset().union(*(content_words(t) for s in SESSIONS for _, _, t in s.turns))
    caught = [m for m in DEMO_NOTES if near_copies(m, prompt_catalogue(), said)]
    assert caught == []
