from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.consolidation import (
    ConsolidationPlan,
    absorb,
    apply_consolidation,
    consolidation_due,
    plan_consolidation,
    replace_content,
)
from eden_memory.domain.errors import InvalidMemoryTextError
from eden_memory.domain.models import ConsolidatedMemory, Reflection
from eden_memory.domain.scopes import ScopeKey
from eden_memory.domain.settings import ConsolidationSettings, ScopeNumbers
from eden_memory.domain.text import word_count
from tests.unit.domain.builders import PROPERTY, T0, make_reflection

DEFAULT = ConsolidationSettings()
AGENT = ScopeKey.agent("a1")
ALICE = ScopeKey.user("a1", "u1")
BOB = ScopeKey.user("a1", "u2")
SESSION = ScopeKey.session("a1", "s1")
KEYS = [AGENT, ALICE, BOB, SESSION]


def buffer(key: ScopeKey, n: int) -> list[Reflection]:
    return [
        make_reflection(f"r{i}", key, content=f"note {i}", formed_at=T0 + timedelta(minutes=i))
        for i in range(n)
    ]


@pytest.mark.parametrize(("key", "threshold"), [(AGENT, 10), (ALICE, 4), (SESSION, 4)])
def test_a_scope_consolidates_when_its_buffer_reaches_its_threshold(
    key: ScopeKey, threshold: int
) -> None:
    assert not consolidation_due(threshold - 1, key, DEFAULT)
    assert consolidation_due(threshold, key, DEFAULT)


def test_a_forced_consolidation_needs_at_least_one_reflection() -> None:
    assert consolidation_due(1, AGENT, DEFAULT, force=True)
    assert not consolidation_due(0, AGENT, DEFAULT, force=True)


@PROPERTY
@given(st.sampled_from(KEYS), st.integers(0, 20), st.booleans())
def test_consolidation_is_due_at_the_threshold_or_forced_with_something_to_absorb(
    key: ScopeKey, buffered: int, force: bool
) -> None:
    due = consolidation_due(buffered, key, DEFAULT, force)
    if force:
        assert due == (buffered >= 1)
    else:
        assert due == (buffered >= DEFAULT.thresholds.of(key.scope))


def test_no_plan_below_the_threshold() -> None:
    assert plan_consolidation(ALICE, None, buffer(ALICE, 3), DEFAULT) is None


def test_a_plan_starts_from_an_empty_blob_with_the_scopes_word_limit() -> None:
    plan = plan_consolidation(ALICE, None, buffer(ALICE, 4), DEFAULT)
    assert plan is not None
    assert plan.current == ConsolidatedMemory.empty(ALICE, 300)
    assert plan.expected_version == 0
    assert plan.key == ALICE
    assert plan.absorbed_ids == ("r0", "r1", "r2", "r3")


def test_a_plan_refuses_the_blob_of_another_key() -> None:
    with pytest.raises(ValueError, match="another scope key"):
        plan_consolidation(ALICE, ConsolidatedMemory.empty(BOB, 300), buffer(ALICE, 4), DEFAULT)


@st.composite
def buffers(draw: st.DrawFn) -> list[Reflection]:
    n = draw(st.integers(0, 16))
    return [
        make_reflection(
            f"r{i}",
            draw(st.sampled_from(KEYS)),
            formed_at=T0 + timedelta(minutes=draw(st.integers(0, 50))),
            absorbed=draw(st.booleans()),
        )
        for i in range(n)
    ]


@PROPERTY
@given(buffers(), st.sampled_from(KEYS), st.booleans())
def test_a_plan_absorbs_exactly_the_keys_unabsorbed_reflections_oldest_first(
    reflections: list[Reflection], key: ScopeKey, force: bool
) -> None:
    plan = plan_consolidation(key, None, reflections, DEFAULT, force=force)
    mine = [r for r in reflections if r.key == key and not r.absorbed]
    if not consolidation_due(len(mine), key, DEFAULT, force):
        assert plan is None
        return
    assert plan is not None
    assert sorted(plan.absorbed_ids) == sorted(r.id for r in mine)
    stamps = [r.formed_at for r in plan.reflections]
    assert stamps == sorted(stamps)
    assert plan.word_limit == DEFAULT.word_limits.of(key.scope)


def planned(key: ScopeKey = ALICE, current: ConsolidatedMemory | None = None) -> ConsolidationPlan:
    plan = plan_consolidation(key, current, buffer(key, 10), DEFAULT)
    assert plan is not None
    return plan


def test_applying_a_consolidation_bumps_the_version_by_one() -> None:
    current = ConsolidatedMemory.empty(ALICE, 300).evolve(content="old", version=4)
    result = apply_consolidation(planned(current=current), "  Likes tea.\nWorks at ACME. ", T0)
    assert result.memory.content == "Likes tea.\nWorks at ACME."
    assert result.memory.version == 5
    assert result.memory.last_consolidated_at == T0
    assert not result.truncated


def test_an_over_long_consolidation_is_cut_to_the_word_limit() -> None:
    result = apply_consolidation(planned(), "word " * 400, T0)
    assert word_count(result.memory.content) == 300
    assert result.truncated


def test_an_empty_consolidation_is_refused() -> None:
    with pytest.raises(InvalidMemoryTextError, match="empty"):
        apply_consolidation(planned(), " \n ", T0)


@PROPERTY
@given(
    st.sampled_from(KEYS),
    st.integers(0, 50),
    st.lists(
        st.lists(st.sampled_from(["a", "bb", "- item", "ç", "## H"]), max_size=40), min_size=1
    ),
)
def test_a_consolidation_never_exceeds_the_word_limit(
    key: ScopeKey, version: int, lines: list[list[str]]
) -> None:
    merged = "\n".join(" ".join(line) for line in lines)
    if not merged.strip():
        return
    settings = ConsolidationSettings(word_limits=ScopeNumbers(agent=25, user=10, session=3))
    current = ConsolidatedMemory.empty(key, 7).evolve(version=version)
    plan = plan_consolidation(key, current, buffer(key, 1), settings, force=True)
    assert plan is not None
    result = apply_consolidation(plan, merged, T0)
    assert result.memory.version == version + 1
    assert 0 < word_count(result.memory.content) <= settings.word_limits.of(key.scope)
    assert result.truncated == (word_count(merged) > settings.word_limits.of(key.scope))


def test_absorbed_reflections_name_the_version_they_went_into() -> None:
    absorbed = absorb(buffer(SESSION, 2), 3, T0)
    assert all(r.absorbed and r.absorbed_into_version == 3 for r in absorbed)
    assert all(r.absorbed_at == T0 for r in absorbed)
    assert [r.content for r in absorbed] == ["note 0", "note 1"]


def test_a_replaced_blob_is_kept_exactly_and_versioned() -> None:
    current = ConsolidatedMemory.empty(AGENT, 10).evolve(content="old", version=2)
    replaced = replace_content(current, "## Persona\n- calm & <precise>", T0)
    assert replaced.content == "## Persona\n- calm & <precise>"
    assert replaced.version == 3
    assert replaced.updated_at == T0


def test_a_replacement_over_the_word_limit_is_refused() -> None:
    current = ConsolidatedMemory.empty(AGENT, 5)
    with pytest.raises(InvalidMemoryTextError, match="limit is 5"):
        replace_content(current, "one two three four five six", T0)


@PROPERTY
@given(st.integers(1, 20), st.integers(0, 30))
def test_a_replacement_is_accepted_iff_it_fits(limit: int, words: int) -> None:
    current = ConsolidatedMemory.empty(AGENT, limit)
    text = " ".join(["w"] * words)
    if words <= limit:
        assert word_count(replace_content(current, text, T0).content) == words
    else:
        with pytest.raises(InvalidMemoryTextError):
            replace_content(current, text, T0)
