"""Shared shape of the domain's records: frozen, strict about unknown fields, UTC times."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Self

from pydantic import AfterValidator, BaseModel, ConfigDict


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError("times must be timezone-aware")
    try:
        return value.astimezone(UTC)
    except OverflowError:  # 0001-01-01 at +14:00: pydantic passes OverflowError through
        raise ValueError(f"time {value.isoformat()} is out of range in UTC") from None


# A timezone-aware instant, kept in UTC. Checked on the time fields only, which keeps
# parsing a stored record cheap.
UtcTime = Annotated[datetime, AfterValidator(_utc)]


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def evolve(self, **changes: Any) -> Self:
        """A validated copy with some fields changed (``model_copy`` would skip validation)."""
        return self.model_validate({**self.model_dump(), **changes})
