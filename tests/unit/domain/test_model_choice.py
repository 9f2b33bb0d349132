from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.model_choice import ModelRole, model_for, reflection_role
from eden_memory.domain.settings import ModelSettings
from tests.unit.domain.builders import PROPERTY

DEFAULT = ModelSettings()


def test_free_users_get_the_fast_reflection_model() -> None:
    assert reflection_role(0, False, DEFAULT) is ModelRole.REFLECTION_FREE
    assert model_for(ModelRole.REFLECTION_FREE, DEFAULT) == "gemini-3-flash-preview"


def test_premium_users_and_previews_get_the_strong_model() -> None:
    assert reflection_role(1, False, DEFAULT) is ModelRole.REFLECTION_PREMIUM
    assert reflection_role(0, True, DEFAULT) is ModelRole.REFLECTION_PREMIUM
    assert model_for(ModelRole.REFLECTION_PREMIUM, DEFAULT) == "gemini-3-pro-preview"


def test_fact_work_uses_the_fast_model() -> None:
    assert model_for(ModelRole.FAST, ModelSettings(fast="my-model")) == "my-model"


@PROPERTY
@given(st.integers(0, 10), st.booleans(), st.integers(0, 10))
def test_the_strong_model_goes_exactly_to_premium_tiers_or_previews(
    tier: int, preview: bool, premium_tier: int
) -> None:
    settings = ModelSettings(premium_tier=premium_tier)
    premium = reflection_role(tier, preview, settings) is ModelRole.REFLECTION_PREMIUM
    assert premium == (preview or tier >= premium_tier)
