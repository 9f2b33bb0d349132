"""Relative dates in a formed memory, made absolute against the day they were said.

A fact is read months later: "Melanie ran a charity race last Saturday" is then wrong or
useless. The prompts show each message's weekday and date and ask the model to resolve such
words, but a small model keeps them as said (issue 15). These rules resolve the common,
unambiguous English forms deterministically, against the date of the message that states the
fact; anything vaguer ("recently", "the other day", "last week") is left as it is.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "a": 1, "an": 1,
}  # fmt: skip
# A preposition that already says how the date relates ("since yesterday"): no "on" added.
_PREPOSITIONS = ("since", "until", "till", "from", "by", "before", "after", "of", "on")

_WEEKDAY = "|".join(_WEEKDAYS)
_COUNT = r"\d{1,2}|" + "|".join(_NUMBERS)
_PHRASE = re.compile(
    rf"""(?:\b(?P<prep>{"|".join(_PREPOSITIONS)})\s+)?\b(?P<phrase>
        the\s+day\s+before\s+yesterday
      | the\s+day\s+after\s+tomorrow
      | yesterday | today | tomorrow | tonight | last\s+night
      | (?:last|this\s+past)\s+(?P<last>{_WEEKDAY})
      | next\s+(?P<next>{_WEEKDAY})
      | (?P<count>{_COUNT})\s+(?P<unit>days?|weeks?)\s+ago
    )\b(?!['’]s)""",
    re.IGNORECASE | re.VERBOSE,
)

# Phrases naming a day at a fixed offset from the day said: (days, whether it is the night).
_FIXED = {
    "the day before yesterday": (-2, False),
    "the day after tomorrow": (2, False),
    "yesterday": (-1, False),
    "today": (0, False),
    "tomorrow": (1, False),
    "tonight": (0, True),
    "last night": (-1, True),
}


def spoken_day(day: date) -> str:
    """``Saturday 6 May 2023``: unambiguous in every locale, and what a reader says."""
    return f"{_WEEKDAYS[day.weekday()].capitalize()} {day.day} {_MONTHS[day.month - 1]} {day.year}"


def has_relative_date(text: str) -> bool:
    return _PHRASE.search(text) is not None


def resolve_relative_dates(text: str, said_on: date) -> str:
    """``text`` with each relative date it holds replaced by the day it names."""

    def absolute(match: re.Match[str]) -> str:
        day, night, around = _day_of(match, said_on)
        prep = match.group("prep")
        if around:
            lead = f"{prep} around " if prep else "around "
        else:
            lead = f"{prep} " if prep else "on "
        spelled = f"the night of {spoken_day(day)}" if night else spoken_day(day)
        said = lead + spelled
        return said[0].upper() + said[1:] if match.start() == 0 else said

    return _PHRASE.sub(absolute, text)


def _day_of(match: re.Match[str], said_on: date) -> tuple[date, bool, bool]:
    """The day named, whether it is that day's night, and whether it is approximate."""
    phrase = " ".join(match.group("phrase").lower().split())
    if phrase in _FIXED:
        offset, night = _FIXED[phrase]
        return said_on + timedelta(days=offset), night, False
    if match.group("last"):
        wanted = _WEEKDAYS.index(match.group("last").lower())
        back = (said_on.weekday() - wanted - 1) % 7 + 1  # strictly before the day said
        return said_on - timedelta(days=back), False, False
    if match.group("next"):
        wanted = _WEEKDAYS.index(match.group("next").lower())
        ahead = (wanted - said_on.weekday() - 1) % 7 + 1  # strictly after the day said
        return said_on + timedelta(days=ahead), False, False
    count = match.group("count").lower()
    n = int(count) if count.isdigit() else _NUMBERS[count]
    weeks = match.group("unit").lower().startswith("week")
    return said_on - timedelta(days=7 * n if weeks else n), False, weeks
