"""One agent's own numbers: a partial of ``MemorySettings`` merged over the host's globals.

Seed 004 let each memory shard set its own thresholds and limits. An agent names only the
fields it changes (``None``: the global value); ``AgentSettings.over`` merges them over the
globals and validates the result as ``MemorySettings`` itself, so an override is held to
exactly the rules of the global it replaces, cross-field ones included (``default_top_k``
within ``max_top_k``); each field is of the bounded kind (``domain.bounds``) of the global it
overrides, so a bad value is refused when the agent's settings are given, not on first use.
Only behaviour an agent owns is here: models, caches, claims and the cold-session sweep
serve every agent at once and stay global (``docs/record/decisions/settings.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from eden_memory.domain.bounds import Count, Depth, Factor, Hours, PositiveCount, Tokens, Unit
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.identity_memo import IdentityMemo
from eden_memory.domain.problems import one_line
from eden_memory.domain.settings import MemorySettings


class _Partial(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScopeOverrides(_Partial):
    agent: PositiveCount | None = None
    user: PositiveCount | None = None
    session: PositiveCount | None = None


class FactOverrides(_Partial):
    enabled: bool | None = None
    fifo_enabled: bool | None = None
    fifo_limit: Count | None = None
    fifo_max_age_hours: Hours | None = None
    max_words: PositiveCount | None = None


class ReflectionOverrides(_Partial):
    enabled: bool | None = None
    max_words: PositiveCount | None = None


class FormationOverrides(_Partial):
    message_interval: PositiveCount | None = None
    token_interval: Tokens | None = None
    min_messages: PositiveCount | None = None


class ConsolidationOverrides(_Partial):
    thresholds: ScopeOverrides = ScopeOverrides()
    word_limits: ScopeOverrides = ScopeOverrides()


class SearchOverrides(_Partial):
    default_top_k: Depth | None = None
    max_top_k: Depth | None = None
    max_queries: PositiveCount | None = None
    abstain_below: Unit | None = None
    time_boost: Factor | None = None


class AgentSettings(_Partial):
    """The fields of ``MemorySettings`` one agent sets for itself; the rest are the host's."""

    facts: FactOverrides = FactOverrides()
    reflections: ReflectionOverrides = ReflectionOverrides()
    formation: FormationOverrides = FormationOverrides()
    consolidation: ConsolidationOverrides = ConsolidationOverrides()
    search: SearchOverrides = SearchOverrides()

    @classmethod
    def of(cls, fields: Mapping[str, object]) -> AgentSettings:
        """From a nested mapping (``{"consolidation": {"thresholds": {"agent": 16}}}``); a bad
        one is refused with the field's path."""
        try:
            return cls.model_validate(fields)
        except ValidationError as error:
            raise InvalidInputError(f"agent settings: {one_line(error)}") from None

    @property
    def changes(self) -> dict[str, Any]:
        """Only the fields set, nested: what is stored with a session and merged."""
        return _prune(self.model_dump(mode="json"))

    def over(self, settings: MemorySettings) -> MemorySettings:
        """The effective settings: these fields over ``settings``, validated as a whole."""
        if not self.model_fields_set:  # most agents: nothing given at all
            return settings
        # By identity first: a host reuses one config and one service's settings, and
        # pydantic hashes a model field by field (the ``lru_cache`` below costs ~0.1 ms).
        return _RESOLVED.get((self, settings), lambda: _merged(self, settings))


_RESOLVED: IdentityMemo[MemorySettings] = IdentityMemo()


@lru_cache(maxsize=256)
def _merged(agent: AgentSettings, settings: MemorySettings) -> MemorySettings:
    # Cached by value: profiles read from the store are new objects of the same few agents.
    changes = agent.changes
    if not changes:
        return settings
    try:
        return MemorySettings.model_validate(_merge(settings.model_dump(), changes))
    except ValidationError as error:
        raise InvalidInputError(f"agent settings: {one_line(error)}") from None


def _prune(fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if isinstance(value, dict):
            value = _prune(value)
        if value is not None and value != {}:
            out[name] = value
    return out


def _merge(base: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for name, value in changes.items():
        below = out.get(name)
        out[name] = _merge(below, value) if isinstance(below, dict) else value
    return out
