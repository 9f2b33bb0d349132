"""What the memory reports of its own work: operations and model calls, for tracing and metrics.

The application names its steps (a formation and its stages, a search, each retriever and
the fusion, a context) and the model calls it makes; an adapter decides what they become
(OpenTelemetry spans and metrics, following the GenAI semantic conventions, in
``adapters/telemetry``). Off, every call is a no-op on one shared object.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Protocol

# What an attribute may hold: low-cardinality facts about a step (sizes, names, modes), never
# the text of a memory or a query.
Attribute = str | bool | int | float


class Span(Protocol):
    """The step under way: facts learnt while it ran (how many results, which cache level)."""

    def set(self, key: str, value: Attribute) -> None: ...


class ModelCall(Protocol):
    """A model call under way: what answered and the tokens it used, once it answered."""

    def answered(self, model: str, input_tokens: int, output_tokens: int | None) -> None:
        """``output_tokens`` None: the call has no output tokens (embeddings)."""
        ...


class Telemetry(Protocol):
    """Where steps and model calls are reported. A step entered inside another is its child
    (across the tasks it starts); an exception leaving a block marks it failed, by its type
    and its class's fixed description: its message may quote a user (``domain/error_summary``)."""

    def operation(
        self, name: str, attributes: Mapping[str, Attribute]
    ) -> AbstractContextManager[Span]:
        """One step of the memory's work, named ``eden_memory.<step>``."""
        ...

    def model_call(
        self, operation: str, model: str, purpose: str
    ) -> AbstractContextManager[ModelCall]:
        """One call to a model: ``chat`` (an LLM) or ``embeddings``, for ``purpose``
        (``fact_extraction``, ``dedup``, ..., or the text role of an embedding)."""
        ...
