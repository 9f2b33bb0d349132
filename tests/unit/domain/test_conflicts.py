"""Between two results about the same thing, the newer first and the older marked, unless the
question names one of them."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.conflicts import Said, asks_now, newer_first, stems, unit
from tests.unit.domain.builders import PROPERTY, T0

SAME = unit([1.0, 0.0, 0.0])
NEAR = unit([0.95, 0.31, 0.0])  # cosine 0.95 to SAME
FAR = unit([0.0, 0.0, 1.0])


def said(text: str, days: int, vector: tuple[float, ...] = SAME, key: str | None = None) -> Said:
    return Said(T0 + timedelta(days=days), stems(text), vector, key)


def test_stems_leave_out_stop_words_and_cut_word_forms() -> None:
    assert stems("Where does my sister Anna's son live?") == {"sister", "anna", "son", "live"}
    assert stems("She lives in Lyon, France") == {"live", "lyon", "franc"}


def test_of_two_near_duplicates_the_newer_ranks_first_and_the_older_is_marked() -> None:
    old = said("I drive a Honda Civic", 0)
    new = said("I sold my Honda and now drive a Tesla", 90, NEAR)
    settled = newer_first([old, new], stems("What car do I drive?"), 0.9)
    assert settled.order == [1, 0]
    assert settled.newer == {0: 1}


def test_results_that_are_not_near_duplicates_keep_their_order() -> None:
    old, new = said("I drive a Honda Civic", 0), said("I live in Denver", 90, FAR)
    assert newer_first([old, new], frozenset(), 0.9).order == [0, 1]
    assert newer_first([old, new], frozenset(), 0.96).newer == {}
    assert newer_first([old, said("again", 0, NEAR)], frozenset(), 0.9).order == [0, 1]


def test_the_question_naming_one_of_two_namesakes_ranks_it_first_unmarked() -> None:
    sister = said("My sister Anna is a nurse", 0)
    friend = said("My friend Anna is a teacher", 90, NEAR)
    asked = stems("What does my sister Anna do?")
    assert newer_first([sister, friend], asked, 0.9).order == [0, 1]
    assert newer_first([friend, sister], asked, 0.9).order == [1, 0]
    assert newer_first([friend, sister], asked, 0.9).newer == {}
    both = stems("What do my sister Anna and my friend Anna do?")
    assert newer_first([sister, friend], both, 0.9).order == [1, 0]  # both named: time decides


def test_a_question_naming_a_word_of_the_older_only_keeps_it_first() -> None:
    boston, denver = said("I live in Boston", 0), said("I moved to Denver", 90, NEAR)
    assert newer_first([boston, denver], stems("Where do I live?"), 0.9).order == [0, 1]


def test_facts_of_one_key_are_ordered_by_time_whatever_the_question_or_similarity() -> None:
    key = "user:nova:alice|user.home_city"
    boston, denver = said("I live in Boston", 0, key=key), said("I moved to Denver", 90, FAR, key)
    settled = newer_first([boston, denver], stems("Where do I live?"), 0.9)
    assert (settled.order, settled.newer) == ([1, 0], {0: 1})


def test_three_versions_come_newest_first_each_marked_with_the_newest() -> None:
    versions = [said("v1", 0), said("v3", 20), said("v2", 10)]
    other = said("unrelated", 5, FAR)
    settled = newer_first([versions[0], other, versions[1], versions[2]], frozenset(), 0.9)
    assert settled.order == [2, 3, 0, 1]
    assert settled.newer == {0: 2, 3: 2}


AXES = 4


@st.composite
def results(draw: st.DrawFn) -> list[Said]:
    """Results whose vectors are axes: the same axis is a duplicate, another is unrelated."""
    n = draw(st.integers(0, 9))
    days = draw(st.lists(st.integers(0, 1000), min_size=n, max_size=n, unique=True))
    axes = draw(st.lists(st.integers(0, AXES - 1), min_size=n, max_size=n))
    out = []
    for day, axis in zip(days, axes, strict=True):
        vector = tuple(1.0 if i == axis else 0.0 for i in range(AXES))
        out.append(Said(T0 + timedelta(days=day), frozenset({f"w{day}"}), vector))
    return out


@PROPERTY
@given(results(), st.floats(0.5, 1.0))
def test_the_order_is_a_permutation_and_groups_come_newest_first(
    found: list[Said], floor: float
) -> None:
    settled = newer_first(found, frozenset(), floor)
    assert sorted(settled.order) == list(range(len(found)))
    placed = [found[i] for i in settled.order]
    for vector in {s.vector for s in found}:
        group = [s.formed_at for s in placed if s.vector == vector]
        assert group == sorted(group, reverse=True)
    for lost, won in settled.newer.items():
        assert found[won].vector == found[lost].vector
        assert found[won].formed_at == max(
            s.formed_at for s in found if s.vector == found[lost].vector
        )
    alone = [i for i in range(len(found)) if sum(s.vector == found[i].vector for s in found) == 1]
    assert [i for i in settled.order if i in alone] == alone


@PROPERTY
@given(results())
def test_without_near_duplicates_nothing_moves(found: list[Said]) -> None:
    settled = newer_first(found, frozenset(), 1.5)
    assert settled.order == list(range(len(found)))
    assert settled.newer == {}


@PROPERTY
@given(results(), st.integers(0, 8), st.integers(0, 8))
def test_a_question_naming_a_word_of_one_near_duplicate_only_ranks_it_first(
    found: list[Said], a: int, b: int
) -> None:
    if a >= len(found) or b >= len(found) or a == b or found[a].vector != found[b].vector:
        return
    pair = [found[a], found[b]]
    asked = found[a].words  # its day's word: held by it alone
    settled = newer_first(pair, asked, 0.9)
    assert (settled.order, settled.newer) == ([0, 1], {})
    assert newer_first(pair[::-1], asked, 0.9).order == [1, 0]


def test_when_the_question_names_a_time_the_older_is_marked_and_keeps_its_place() -> None:
    old, new = said("Alice hiked in the Alps", 0), said("Alice hiked in the Vosges", 90, NEAR)
    settled = newer_first([old, new], frozenset(), 0.9, by_time=False)
    assert (settled.order, settled.newer) == ([0, 1], {0: 1})


def test_a_question_in_the_present_asks_now_one_about_the_past_does_not() -> None:
    for question in ("Where do I live?", "What is my job?", "Who is my partner now?"):
        assert asks_now(question, T0)
    for question in (
        "When did Caroline go to the support group?",
        "What was my phone number?",
        "Where were we in 2019?",
        "What car do I drive since last week?",
        "Why didn't she come?",
    ):
        assert not asks_now(question, T0)
