"""When a session's messages are due for memory formation."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from eden_memory.domain.models.messages import Message, Role
from eden_memory.domain.settings import FormationSettings, RoleWeights


def role_weight(role: Role, weights: RoleWeights) -> float:
    return float(getattr(weights, role.value))


def weighted_tokens(messages: Iterable[Message], settings: FormationSettings) -> float:
    """Estimated tokens (characters / 4.5), each message weighted by its role.

    A user's words say most about what to remember; an agent's own replies say least.
    """
    return sum(
        len(m.text) / settings.chars_per_token * role_weight(m.role, settings.role_weights)
        for m in messages
    )


def formation_due(pending_messages: int, pending_tokens: float, s: FormationSettings) -> bool:
    """Enough new messages, and either many of them or many weighted tokens."""
    if pending_messages < s.min_messages:
        return False
    return pending_messages >= s.message_interval or pending_tokens >= s.token_interval


def is_cold(
    last_activity_at: datetime | None,
    pending_messages: int,
    now: datetime,
    s: FormationSettings,
) -> bool:
    """Quiet for ``cold_after_minutes`` with at least ``min_messages`` still unformed."""
    if last_activity_at is None or pending_messages < s.min_messages:
        return False
    return now - last_activity_at >= timedelta(minutes=s.cold_after_minutes)


def cold_cutoff(now: datetime, s: FormationSettings) -> datetime:
    """Sessions whose last activity is at or before this instant are cold."""
    return now - timedelta(minutes=s.cold_after_minutes)
