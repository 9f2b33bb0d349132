from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from eden_memory.domain.scopes import Scope
from eden_memory.domain.settings import (
    ConsolidationSettings,
    DedupSettings,
    FactSettings,
    FormationSettings,
    MemorySettings,
    ScopeNumbers,
    SearchSettings,
)
from tests.unit.domain.builders import PROPERTY

DEFAULTS = MemorySettings()


def test_memory_is_on_by_default() -> None:
    assert DEFAULTS.enabled is True


def test_the_fifo_defaults_are_on_40_facts_and_168_hours() -> None:
    assert DEFAULTS.facts.fifo_enabled is True
    assert DEFAULTS.facts.fifo_limit == 40
    assert DEFAULTS.facts.fifo_max_age_hours == 168


def test_the_dedup_defaults_are_on_5_candidates_and_the_models_calibrated_floor() -> None:
    assert DEFAULTS.dedup.enabled is True
    assert DEFAULTS.dedup.candidates_per_fact == 5
    assert DEFAULTS.dedup.min_similarity is None  # the embedder's calibration decides


def test_the_formation_defaults_are_45_messages_1500_tokens_4_minimum_10_minutes() -> None:
    formation = DEFAULTS.formation
    assert formation.message_interval == 45
    assert formation.token_interval == 1500
    assert formation.min_messages == 4
    assert formation.cold_after_minutes == 10
    assert formation.chars_per_token == 4.5


def test_the_role_weights_default_to_user_1_tool_half_agent_0_2_other_half() -> None:
    weights = DEFAULTS.formation.role_weights
    assert (weights.user, weights.tool, weights.agent, weights.other) == (1.0, 0.5, 0.2, 0.5)


def test_the_consolidation_thresholds_default_to_10_4_4() -> None:
    thresholds = DEFAULTS.consolidation.thresholds
    assert [thresholds.of(s) for s in (Scope.AGENT, Scope.USER, Scope.SESSION)] == [10, 4, 4]


def test_the_consolidated_word_limits_default_to_1200_300_200() -> None:
    limits = DEFAULTS.consolidation.word_limits
    assert [limits.of(s) for s in (Scope.AGENT, Scope.USER, Scope.SESSION)] == [1200, 300, 200]


def test_facts_default_to_30_words_and_reflections_to_35() -> None:
    assert DEFAULTS.facts.max_words == 30
    assert DEFAULTS.reflections.max_words == 35


def test_the_search_defaults_are_calibrated_score_fusion_rrf_kept_top_10_three_queries() -> None:
    search = DEFAULTS.search
    assert search.semantic_threshold is None  # the embedder's calibration decides
    assert (search.fusion, search.semantic_weight, search.keyword_weight) == ("score", 0.5, 0.5)
    assert search.rrf_threshold == 0.015
    assert search.rrf_k == 60
    assert search.default_top_k == 10
    assert search.max_queries == 3


def test_the_text_threshold_defaults_to_the_stores_calibration() -> None:
    # The design's table says 1.5 (Atlas Search scores); the design also says the text
    # threshold is calibrated per store, so the default leaves the choice to the store.
    assert DEFAULTS.search.text_threshold is None
    assert SearchSettings(text_threshold=1.5).text_threshold == 1.5


def test_the_context_cache_lives_five_minutes() -> None:
    assert DEFAULTS.context.cache_ttl_seconds == 300


def test_the_default_models_are_gemini_flash_and_pro() -> None:
    models = DEFAULTS.models
    assert models.fast == "gemini-3-flash-preview"
    assert models.reflection_free == "gemini-3-flash-preview"
    assert models.reflection_premium == "gemini-3-pro-preview"
    assert models.premium_tier == 1


UNIT_FIELDS: list[tuple[type[BaseModel], str]] = [
    (DedupSettings, "min_similarity"),
    (SearchSettings, "semantic_threshold"),
    (SearchSettings, "rrf_threshold"),
]
LIMIT_FIELDS: list[tuple[type[BaseModel], str]] = [
    (FactSettings, "fifo_limit"),
    (FactSettings, "max_words"),
    (DedupSettings, "candidates_per_fact"),
    (FormationSettings, "message_interval"),
    (FormationSettings, "min_messages"),
    (FormationSettings, "token_interval"),
    (FormationSettings, "cold_after_minutes"),
    (SearchSettings, "rrf_k"),
    (SearchSettings, "max_queries"),
    (SearchSettings, "text_threshold"),
]


@PROPERTY
@given(
    st.sampled_from(UNIT_FIELDS),
    st.one_of(st.floats(max_value=-1e-9), st.floats(min_value=1.000001), st.just(float("nan"))),
)
def test_a_threshold_outside_zero_to_one_is_refused(
    field: tuple[type[BaseModel], str], value: float
) -> None:
    model, name = field
    with pytest.raises(ValidationError):
        model(**{name: value})


@PROPERTY
@given(st.sampled_from(UNIT_FIELDS), st.floats(min_value=0.0, max_value=1.0))
def test_a_threshold_inside_zero_to_one_is_kept(
    field: tuple[type[BaseModel], str], value: float
) -> None:
    model, name = field
    assert getattr(model(**{name: value}), name) == value


@pytest.mark.parametrize("field", LIMIT_FIELDS)
def test_a_negative_limit_is_refused(field: tuple[type[BaseModel], str]) -> None:
    model, name = field
    with pytest.raises(ValidationError):
        model(**{name: -1})


def test_a_scope_number_must_be_positive() -> None:
    with pytest.raises(ValidationError):
        ScopeNumbers(agent=10, user=0, session=4)
    with pytest.raises(ValidationError):
        ConsolidationSettings.model_validate(
            {"word_limits": {"agent": -1, "user": 1, "session": 1}}
        )


def test_the_default_top_k_cannot_exceed_the_maximum() -> None:
    with pytest.raises(ValidationError, match="default_top_k"):
        SearchSettings(default_top_k=60, max_top_k=50)


def test_unknown_settings_are_refused_and_settings_are_frozen() -> None:
    with pytest.raises(ValidationError):
        MemorySettings(**{"fifo_limit": 3})
    with pytest.raises(ValidationError):
        DEFAULTS.facts.fifo_limit = 3  # type: ignore[misc]


def test_nested_settings_validate_from_plain_values() -> None:
    raw: dict[str, Any] = {"facts": {"fifo_limit": 5}, "search": {"rrf_k": 30}}
    settings = MemorySettings.model_validate(raw)
    assert settings.facts.fifo_limit == 5
    assert settings.search.rrf_k == 30
    assert settings.dedup == DedupSettings()
