"""Telemetry off: the default of every service, a no-op that costs one method call per step.

No tracing library is imported for it; a host turns telemetry on by giving the service an
adapter (``adapters/telemetry/otel.py``, or ``EDEN_MEMORY_TELEMETRY=otel`` in the container).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import TracebackType

from eden_memory.ports.telemetry import Attribute


class _Nothing:
    """The span, the model call and their context manager at once: nothing to allocate."""

    def __enter__(self) -> _Nothing:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        return None

    def set(self, key: str, value: Attribute) -> None:
        return None

    def answered(self, model: str, input_tokens: int, output_tokens: int | None) -> None:
        return None


NOTHING = _Nothing()


class NoTelemetry:
    """``Telemetry`` that reports nothing."""

    def operation(self, name: str, attributes: Mapping[str, Attribute]) -> _Nothing:
        return NOTHING

    def model_call(self, operation: str, model: str, purpose: str) -> _Nothing:
        return NOTHING


NO_TELEMETRY = NoTelemetry()
