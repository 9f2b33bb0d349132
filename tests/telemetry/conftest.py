"""An OpenTelemetry SDK that keeps what it is sent: spans in an exporter, metrics in a reader."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from eden_memory.adapters.telemetry.otel import OtelTelemetry


@dataclass
class Recorded:
    telemetry: OtelTelemetry
    exporter: InMemorySpanExporter
    reader: InMemoryMetricReader

    def spans(self, name: str | None = None) -> list[ReadableSpan]:
        found = list(self.exporter.get_finished_spans())
        return [s for s in found if name is None or s.name == name]

    def points(self, metric: str) -> list[Any]:
        """The data points of one metric (histogram points: ``count``, ``sum``, ``attributes``)."""
        data = self.reader.get_metrics_data()
        return [
            point
            for resource in (data.resource_metrics if data else [])
            for scope in resource.scope_metrics
            for found in scope.metrics
            if found.name == metric
            for point in found.data.data_points
        ]


def recording(capture_content: bool = False) -> Iterator[Recorded]:
    exporter = InMemorySpanExporter()
    tracing = TracerProvider()
    tracing.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    metering = MeterProvider(metric_readers=[reader])
    telemetry = OtelTelemetry(
        {"gemini-3-flash-preview": "gcp.gemini"},
        embedding_provider="keyword",
        tracer_provider=tracing,
        meter_provider=metering,
        capture_content=capture_content,
    )
    yield Recorded(telemetry, exporter, reader)
    tracing.shutdown()
    metering.shutdown()


@pytest.fixture
def recorded() -> Iterator[Recorded]:
    yield from recording()


@pytest.fixture
def capturing() -> Iterator[Recorded]:
    """The same, with content capture on (exceptions recorded as they read)."""
    yield from recording(capture_content=True)
