"""Where formation files what it learns: two checks of seeds 000/001, read from saved runs.

- **The same note at several levels**: each level holds only what a broader one did not
  capture, so a note of one session that restates another level's note of the same session
  (most of its content words shared) is filed twice.
- **Not facts, filed as facts**: preferences on how the agent should behave, opinions, what
  the conversation is doing and passing state go to reflections. A fact is flagged by the
  words that say so ("thinks", "asks", "shares", "today", "is busy"...): a lexical reading
  that flags a speech-act wrapper ("Ana says she moved") too and misses a paraphrase, so the
  flagged facts are printed to be read, not trusted as a count alone.

Pure functions over the saved run's ``runs[].notes`` and ``facts``: any run saved by
``benchmarks.formation_quality`` or ``benchmarks.locomo_qa`` can be scored again offline.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from eden_memory.domain.stop_words import STOP_WORDS

SAME_NOTE = 0.75  # share of the shorter note's content words found in the other

NOT_FACTS: dict[str, re.Pattern[str]] = {
    "wants of the agent": re.compile(
        r"\b(wants?|prefers?|would like|asks? for|likes?)\b.{0,40}\b(answers?|responses?|"
        r"replies|reply|the agent|reminders?|short|concise|brief)\b",
        re.IGNORECASE,
    ),
    "opinion": re.compile(
        r"\b(thinks?|believes?|finds?|considers?|agrees?|admires?|in (his|her|their) "
        r"opinion|is impressed)\b",
        re.IGNORECASE,
    ),
    "the conversation's doing": re.compile(
        r"\b(asks|asked|shares|shared|mentions|mentioned|says|said|tells|told|wonders|"
        r"expresses|expressed|is (asking|discussing|talking|chatting|sharing))\b",
        re.IGNORECASE,
    ),
    "passing state": re.compile(
        r"\b(today|tonight|right now|currently|at the moment|these days|this week|"
        r"(is|are|was|feels?|felt) (tired|busy|swamped|stressed|exhausted|sick|excited|happy|"
        r"sad|thankful|grateful))\b",
        re.IGNORECASE,
    ),
}


def content_words(text: str) -> set[str]:
    """The words that say something: sharing "the" or "she" makes no two notes the same."""
    return {w for w in re.findall(r"[a-z0-9']+", text.lower()) if w not in STOP_WORDS}


def same_note(a: str, b: str) -> bool:
    """Most of the shorter note's content words are in the other: one restates the other."""
    words_a, words_b = content_words(a), content_words(b)
    shorter = min(len(words_a), len(words_b))
    return shorter > 0 and len(words_a & words_b) / shorter >= SAME_NOTE


def filed_twice(notes: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The notes (scope, text) of one session that restate a note of another level."""
    return [
        (scope, text)
        for scope, text in notes
        if any(other != scope and same_note(text, twin) for other, twin in notes)
    ]


def not_a_fact(text: str) -> list[str]:
    """The kinds of what facts are not that the fact's words say it is (none: a fact)."""
    return [kind for kind, pattern in NOT_FACTS.items() if pattern.search(text)]


def placement_stats(formed: dict[str, Any]) -> dict[str, Any]:
    """Both checks over a saved run, with the offending texts to quote."""
    notes = [(s, t) for run in formed["runs"] for s, t in run.get("notes", [])]
    twice = [n for run in formed["runs"] for n in filed_twice(run.get("notes", []))]
    flagged = [(f["content"], not_a_fact(f["content"])) for f in formed["facts"]]
    flagged = [(text, kinds) for text, kinds in flagged if kinds]
    return {
        "notes": len(notes),
        "notes_at_several_levels": len(twice),
        "notes_filed_twice": [f"[{scope}] {text}" for scope, text in twice],
        "facts": len(formed["facts"]),
        "facts_flagged_not_facts": len(flagged),
        "flagged_by_kind": dict(Counter(k for _, kinds in flagged for k in kinds)),
        "facts_flagged": [f"{text} ({', '.join(kinds)})" for text, kinds in flagged],
    }


def print_placement(stats: dict[str, Any]) -> None:
    notes, twice = stats["notes"], stats["notes_at_several_levels"]
    share = f" ({100 * twice / notes:.0f}%)" if notes else ""
    print("\nWhere things were filed (seeds 000/001; benchmarks.formation_placement)")
    print(f"  notes kept                  {notes}")
    print(f"  notes at several levels     {twice}{share}")
    for line in stats["notes_filed_twice"]:
        print(f"    {line[:110]}")
    print(f"  facts flagged as not facts  {stats['facts_flagged_not_facts']} of {stats['facts']}")
    print(f"  by kind                     {stats['flagged_by_kind']}")
    for line in stats["facts_flagged"]:
        print(f"    {line[:110]}")
