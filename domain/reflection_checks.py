"""How many notes a level keeps from one reflection call.

A small model (issue 15) once answered a 17-message session with the whole conversation as
notes, one line each. Notes ride in every prompt; one session teaches a level a few things at
most. The prompt asks for at most ``NOTES_PER_SCOPE`` a level; past that, notes are refused
(reported, never stored) and the first ones kept, as the model lists them. Only notes that
passed the other checks count: a refused copy does not use up a place.
"""

from __future__ import annotations

from collections.abc import Sequence

NOTES_PER_SCOPE = 3


def split_at_limit(
    notes: Sequence[str], limit: int = NOTES_PER_SCOPE
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The notes kept (the first ``limit``) and those past the limit, both in order."""
    if limit < 0:
        raise ValueError(f"a limit of notes is at least 0, not {limit}")
    return tuple(notes[:limit]), tuple(notes[limit:])


def over_limit_reason(limit: int = NOTES_PER_SCOPE) -> str:
    """Why a note past the limit is refused."""
    return f"more than {limit} notes for one level from one session; the first {limit} are kept"
