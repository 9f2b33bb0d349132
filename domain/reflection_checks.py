"""How many notes a level keeps from one reflection call, at the base conversation length.

A small model (issue 15) once answered a 17-message session with the whole conversation as
notes, one line each. Notes ride in every prompt; one session teaches a level a few things at
most. The prompt asks for at most the formation's cap a level, ``NOTES_PER_SCOPE`` for a
conversation of the base length and scaled with its length (``domain.formation_caps``); past
that, notes are counted and not kept, the first ones kept as the model lists them. Only notes
that passed the other checks count: a refused copy does not use up a place.
"""

from __future__ import annotations

NOTES_PER_SCOPE = 3
