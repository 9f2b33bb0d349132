"""Usage accounting, the one mechanism: every LLM and embedding call counted into a ``UsageMeter``.

The service wraps its LLM clients and its embedder in ``MeteredLLM`` / ``MeteredEmbedder``
once (with the host's meter, or its own), so no call site counts anything by hand; a
formation's or an ingestion's report is the usage of its own scope (``Usage.of``).

Two ways to read the usage of one piece of work::

    before = meter.snapshot()
    ...                                   # everything that ran meanwhile, on any task
    spent = meter.snapshot() - before

    with meter.scope() as usage:          # only calls made inside the block, including
        await form(session)               # tasks it starts, not concurrent work elsewhere
    spent = usage.snapshot()

Scopes follow ``contextvars``, so two formations running side by side on one meter each see
their own calls.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.usage import EmbeddingTally, LLMTally, UsageSnapshot
from eden_memory.ports.embedder import Embedder, Embeddings
from eden_memory.ports.llm import LLM, LLMRequest, LLMResult, T
from eden_memory.ports.telemetry import Telemetry


class UsageScope:
    """The usage recorded inside one ``UsageMeter.scope()`` block (read it any time)."""

    def __init__(self) -> None:
        self._llm: dict[tuple[str, str], LLMTally] = {}
        self._embeddings: dict[str, EmbeddingTally] = {}

    def snapshot(self) -> UsageSnapshot:
        return UsageSnapshot(dict(self._llm), dict(self._embeddings))

    def _add_llm(self, key: tuple[str, str], tally: LLMTally) -> None:
        self._llm[key] = self._llm.get(key, LLMTally()) + tally

    def _add_embedding(self, model: str, tally: EmbeddingTally) -> None:
        self._embeddings[model] = self._embeddings.get(model, EmbeddingTally()) + tally


class UsageMeter:
    """Running totals of LLM calls per (purpose, model) and embedding calls per model."""

    def __init__(self) -> None:
        self._totals = UsageScope()
        self._scopes: ContextVar[tuple[UsageScope, ...]] = ContextVar(
            f"eden_memory_usage_scopes_{id(self)}", default=()
        )

    def snapshot(self) -> UsageSnapshot:
        return self._totals.snapshot()

    @contextmanager
    def scope(self) -> Iterator[UsageScope]:
        """Collect the calls made in this block (and in the tasks it creates)."""
        usage = UsageScope()
        token = self._scopes.set((*self._scopes.get(), usage))
        try:
            yield usage
        finally:
            self._scopes.reset(token)

    def record_llm(self, purpose: str, model: str, tally: LLMTally) -> None:
        for target in (self._totals, *self._scopes.get()):
            target._add_llm((purpose, model), tally)

    def record_embedding(self, model: str, tally: EmbeddingTally) -> None:
        for target in (self._totals, *self._scopes.get()):
            target._add_embedding(model, tally)


class MeteredLLM:
    """Counts the calls and tokens of ``inner`` into ``meter``, and reports each call to
    ``telemetry`` (the one place every model call passes).

    Usage is keyed by the requested model (the configured name), not the provider's
    version string, so a report lines up with the settings and failed calls, which have
    no answer to name a model, land on the same key.
    """

    def __init__(self, inner: LLM, meter: UsageMeter, telemetry: Telemetry = NO_TELEMETRY) -> None:
        self._inner = inner
        self._meter = meter
        self._telemetry = telemetry

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        with self._telemetry.model_call("chat", request.model, request.purpose) as call:
            try:
                result = await self._inner.generate(request, schema)
            except Exception:
                failed = LLMTally(calls=1, failures=1)
                self._meter.record_llm(request.purpose, request.model, failed)
                raise
            call.answered(result.model, result.input_tokens, result.output_tokens)
        tally = LLMTally(
            calls=1, input_tokens=result.input_tokens, output_tokens=result.output_tokens
        )
        self._meter.record_llm(request.purpose, request.model, tally)
        return result


class MeteredEmbedder:
    """Counts the calls, texts and tokens of ``inner`` into ``meter``, per embedding model,
    and reports each call to ``telemetry``."""

    def __init__(
        self, inner: Embedder, meter: UsageMeter, telemetry: Telemetry = NO_TELEMETRY
    ) -> None:
        self._inner = inner
        self._meter = meter
        self._telemetry = telemetry

    @property
    def space(self) -> EmbeddingSpace:
        return self._inner.space

    async def embed(self, texts: Sequence[str], role: TextRole) -> Embeddings:
        model = self._inner.space.model
        with self._telemetry.model_call("embeddings", model, role.value) as call:
            try:
                result = await self._inner.embed(texts, role)
            except Exception:
                self._meter.record_embedding(model, EmbeddingTally(calls=1, failures=1))
                raise
            call.answered(model, result.input_tokens, None)
        tally = EmbeddingTally(calls=1, texts=len(texts), input_tokens=result.input_tokens)
        self._meter.record_embedding(model, tally)
        return result
