"""How many facts and notes one formation may keep, by the length of its conversation.

A model asked for the facts of four messages once answered 10,000, and every one was stored
(issue 26). The bound is seed 004's: a multiplier on base counts, from the characters of the
formed messages, ``log(total_chars / base_chars, log_base) + 1`` clamped to
``[min_multiplier, max_multiplier]``: a short chat keeps fewer, a long one more, neither
without limit. Items past a cap are not kept: the first ones, in the model's order, are
(the application counts the rest in the formation report).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from eden_memory.domain.settings import CapSettings


def length_multiplier(total_chars: int, settings: CapSettings) -> float:
    """The seed's multiplier: 1 at ``base_chars``, +1 for each ``log_base`` times longer,
    clamped; a conversation without text counts as the shortest."""
    low, high = settings.min_multiplier, settings.max_multiplier
    if total_chars <= 0:
        return low
    raw = math.log(total_chars / settings.base_chars, settings.log_base) + 1.0
    return min(high, max(low, raw))


def scaled(base: int, multiplier: float) -> int:
    """``base × multiplier`` rounded half up, and never below 1: a formation keeps something."""
    return max(1, math.floor(base * multiplier + 0.5))


@dataclass(frozen=True)
class FormationCaps:
    """The most facts (all scopes together) and notes (each level) one formation keeps."""

    facts: int
    notes_per_scope: int

    @classmethod
    def of(cls, total_chars: int, settings: CapSettings) -> FormationCaps:
        multiplier = length_multiplier(total_chars, settings)
        return cls(
            facts=scaled(settings.facts, multiplier),
            notes_per_scope=scaled(settings.reflections_per_scope, multiplier),
        )

    @classmethod
    def for_texts(cls, texts: Iterable[str], settings: CapSettings) -> FormationCaps:
        """The caps for a conversation of these message texts."""
        return cls.of(sum(len(text) for text in texts), settings)
