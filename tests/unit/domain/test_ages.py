from __future__ import annotations

import re
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.ages import age_label
from tests.unit.domain.builders import PROPERTY, T0

UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400, "y": 365 * 86400}


@pytest.mark.parametrize(
    ("age", "label"),
    [
        (timedelta(0), "just now"),
        (timedelta(seconds=59), "just now"),
        (timedelta(seconds=60), "1m ago"),
        (timedelta(minutes=5, seconds=30), "5m ago"),
        (timedelta(minutes=59, seconds=59), "59m ago"),
        (timedelta(hours=3), "3h ago"),
        (timedelta(hours=23, minutes=59), "23h ago"),
        (timedelta(days=2, hours=5), "2d ago"),
        (timedelta(days=364), "364d ago"),
        (timedelta(days=365), "1y ago"),
        (timedelta(days=3 * 365 + 10), "3y ago"),
        (timedelta(minutes=-5), "just now"),
    ],
)
def test_an_age_reads_like_a_short_phrase(age: timedelta, label: str) -> None:
    assert age_label(T0 - age, T0) == label


def lower_bound_seconds(label: str) -> int:
    if label == "just now":
        return 0
    match = re.fullmatch(r"(\d+)([mhdy]) ago", label)
    assert match is not None, label
    return int(match.group(1)) * UNIT_SECONDS[match.group(2)]


@PROPERTY
@given(st.integers(-(10**6), 10**10), st.integers(0, 10**9))
def test_an_older_memory_never_looks_younger(seconds: int, more: int) -> None:
    younger = age_label(T0 - timedelta(seconds=seconds), T0)
    older = age_label(T0 - timedelta(seconds=seconds + more), T0)
    assert lower_bound_seconds(younger) <= lower_bound_seconds(older)


@PROPERTY
@given(st.integers(0, 10**10))
def test_an_age_label_never_overstates_the_age(seconds: int) -> None:
    assert lower_bound_seconds(age_label(T0 - timedelta(seconds=seconds), T0)) <= seconds
