"""Time named in a question: which stretch of time a question asks about, if any.

Facts carry the time they were said (``formed_at``). A question that names a time ("what
did I do last week", "the trip in May 2023", "who called yesterday") should rank the facts
said then above the others; a question that names none is left alone. Recognised, in
English: a month with or without a year ("in June", "May 2023"), a year from 1900 to 2099,
a season ("last summer" is read as the season's months), and relative days, weeks, months and
years measured from ``now`` ("yesterday", "last week", "this month", "last year"). A month
without a year matches that month of any year: the user may be speaking of any of them.
A calendar date with its year ("on 13 October 2023", "October 13th, 2023", "2023-10-13")
names that day, give or take one (time zones, a session past midnight), and is marked
``day``: the search raises facts said that day by its own, larger factor.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from eden_memory.domain.ranking import FusedHit

MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
SEASONS = {
    "spring": (3, 4, 5),
    "summer": (6, 7, 8),
    "autumn": (9, 10, 11),
    "fall": (9, 10, 11),
    "winter": (12, 1, 2),
}
_WORD = re.compile(r"[a-z]+|\d{4}")
# "may" is a month only beside a year or after "in"/"of"/"since"/"during"/"early"/"late".
_MAY_CONTEXT = {"in", "of", "since", "during", "early", "late", "mid", "last", "this", "next"}
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_NTH = r"(\d{1,2})(?:st|nd|rd|th)?"
_DAY_FIRST = re.compile(rf"\b{_NTH}(?:\s+of)?\s+({_MONTH})\.?,?\s+(\d{{4}})\b")
_MONTH_FIRST = re.compile(rf"\b({_MONTH})\.?\s+{_NTH},?\s+(\d{{4}})\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
DAY_SLACK = timedelta(days=1)


@dataclass(frozen=True)
class TimeFilter:
    """The stretch a question names: an interval, or months of any year (or of ``year``)."""

    start: datetime | None = None
    end: datetime | None = None
    months: frozenset[int] = frozenset()
    year: int | None = None
    day: bool = False  # a calendar date was named (the interval is that day, give or take one)

    def covers(self, moment: datetime) -> bool:
        if self.start is not None and self.end is not None:
            return self.start <= moment < self.end
        if self.year is not None and moment.year != self.year:
            return False
        return not self.months or moment.month in self.months


def time_named(question: str, now: datetime) -> TimeFilter | None:
    """The time ``question`` asks about, or None when it names none."""
    day = _date(question.lower())
    if day is not None:
        return TimeFilter(day - DAY_SLACK, day + timedelta(days=1) + DAY_SLACK, day=True)
    words = _WORD.findall(question.lower())
    relative = _relative(words, now)
    if relative is not None:
        return relative
    years = [int(w) for w in words if w.isdigit() and 1900 <= int(w) <= 2099]
    months = frozenset(_months(words))
    if not months and not years:
        return None
    return TimeFilter(months=months, year=years[0] if len(set(years)) == 1 else None)


def _date(text: str) -> datetime | None:
    """The first calendar date with a year that ``text`` names, at midnight UTC."""
    for pattern, order in ((_ISO, "ymd"), (_DAY_FIRST, "dmy"), (_MONTH_FIRST, "mdy")):
        for match in pattern.finditer(text):
            parts = dict(zip(order, match.groups(), strict=True))
            month = int(parts["m"]) if parts["m"].isdigit() else MONTHS[parts["m"]]
            try:
                return datetime(int(parts["y"]), month, int(parts["d"]), tzinfo=UTC)
            except ValueError:
                continue  # "31 February 2023": not a day
    return None


def _months(words: list[str]) -> list[int]:
    found: list[int] = []
    for i, word in enumerate(words):
        if word == "may":
            before = words[i - 1] if i else ""
            after = words[i + 1] if i + 1 < len(words) else ""
            if before not in _MAY_CONTEXT and not after.isdigit():
                continue  # "may I ask", "you may"
        if word in MONTHS:
            found.append(MONTHS[word])
        elif word in SEASONS:
            found.extend(SEASONS[word])
    return found


def _relative(words: list[str], now: datetime) -> TimeFilter | None:
    text = " ".join(words)
    today = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if "yesterday" in words:
        return TimeFilter(today - timedelta(days=1), today)
    if "today" in words or "tonight" in words:
        return TimeFilter(today, today + timedelta(days=1))
    monday = today - timedelta(days=today.weekday())
    month_start = today.replace(day=1)
    spans = {
        "last week": (monday - timedelta(days=7), monday),
        "this week": (monday, monday + timedelta(days=7)),
        "last month": ((month_start - timedelta(days=1)).replace(day=1), month_start),
        "this month": (month_start, _next_month(month_start)),
        "last year": (
            today.replace(year=today.year - 1, month=1, day=1),
            today.replace(month=1, day=1),
        ),
        "this year": (
            today.replace(month=1, day=1),
            today.replace(year=today.year + 1, month=1, day=1),
        ),
    }
    for phrase, (start, end) in spans.items():
        if phrase in text:
            return TimeFilter(start, end)
    return None


# What ``_relative`` reads, as phrases a fact's text never needs to hold: its time is when
# it was said, not these words.
_RELATIVE = re.compile(
    r"\b(?:yesterday|today|tonight|(?:last|this)\s+(?:week|month|year))\b", re.IGNORECASE
)


def without_relative_time(question: str) -> str:
    """``question`` without the relative times it names ("last week", "yesterday"), for the
    keyword side: the time raise reads them, and a fact holding "week" is no nearer to "what
    did I do last week" (the words would count as missing from every fact). The question as
    it was when nothing else is left."""
    stripped = " ".join(_RELATIVE.sub(" ", question).split())
    return stripped if any(c.isalnum() for c in stripped) else question


def _next_month(first: datetime) -> datetime:
    return (first + timedelta(days=32)).replace(day=1)


def boost_in_time(
    hits: Sequence[FusedHit], named: TimeFilter, said_at: Mapping[str, datetime], factor: float
) -> list[FusedHit]:
    """``hits`` with the score of each fact said in the named time multiplied by
    ``1 + factor``, best first (ties keep their order)."""
    boosted = [
        replace(h, score=h.score * (1.0 + factor))
        if h.id in said_at and named.covers(said_at[h.id])
        else h
        for h in hits
    ]
    order = {h.id: i for i, h in enumerate(hits)}
    return sorted(boosted, key=lambda h: (-h.score, order[h.id]))
