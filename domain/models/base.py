"""Shared shape of the domain's records: frozen, strict about unknown fields, UTC times."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, field_validator


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _utc(cls, value: Any) -> Any:
        if isinstance(value, datetime):
            if value.tzinfo is None:
                raise ValueError("times must be timezone-aware")
            return value.astimezone(UTC)
        return value

    def evolve(self, **changes: Any) -> Self:
        """A validated copy with some fields changed (``model_copy`` would skip validation)."""
        return self.model_validate({**self.model_dump(), **changes})
