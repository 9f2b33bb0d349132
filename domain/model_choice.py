"""Which model serves which step: configuration, decided here once."""

from __future__ import annotations

from enum import StrEnum

from eden_memory.domain.settings import ModelSettings


class ModelRole(StrEnum):
    FAST = "fast"
    REFLECTION_FREE = "reflection_free"
    REFLECTION_PREMIUM = "reflection_premium"


def reflection_role(tier: int, preview: bool, settings: ModelSettings) -> ModelRole:
    """Premium users (tier at or above the premium tier) or a preview flag get the strong model."""
    if preview or tier >= settings.premium_tier:
        return ModelRole.REFLECTION_PREMIUM
    return ModelRole.REFLECTION_FREE


def model_for(role: ModelRole, settings: ModelSettings) -> str:
    return str(getattr(settings, role.value))
