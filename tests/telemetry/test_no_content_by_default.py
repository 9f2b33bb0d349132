"""No span, span event, status, metric or log record of the library quotes a user by default
(issue 40, item 4); with content capture on, failed spans carry the exception's message."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry.trace import StatusCode

from eden_memory.adapters.telemetry.otel import OtelTelemetry
from eden_memory.config import EdenMemoryConfig
from eden_memory.container.telemetry import telemetry as chosen_telemetry
from tests.telemetry.conftest import Recorded
from tests.telemetry.content_scenarios import SCENARIOS, SECRET, Scenario

# Scenarios in which an error quoting the secret reaches at least one span.
FAILING_SPANS = [
    "provider error",
    "malformed answer",
    "store error",
    "rerank failure",
    "expansion failure",
    "embedder failure",
    "consolidation failure",
    "background formation failure",
    "cold formation failure",
    "openai error body",
    "openai malformed json",
]


def _text(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, tuple | list) else str(value)


def span_leaks(recorded: Recorded) -> Iterator[str]:
    for span in recorded.spans():
        for key, value in (span.attributes or {}).items():
            if SECRET in _text(value):
                yield f"{span.name}: attribute {key}"
        for event in span.events:
            for key, value in (event.attributes or {}).items():
                if SECRET in _text(value):
                    yield f"{span.name}: {event.name} event {key}"
        if SECRET in (span.status.description or ""):
            yield f"{span.name}: status description"


def metric_leaks(recorded: Recorded) -> Iterator[str]:
    data = recorded.reader.get_metrics_data()
    for resource in data.resource_metrics if data else []:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                for point in metric.data.data_points:
                    if SECRET in repr(dict(point.attributes or {})):
                        yield f"metric {metric.name}"


def log_leaks(records: list[logging.LogRecord]) -> Iterator[str]:
    formatter = logging.Formatter()
    for record in records:
        shown = record.getMessage()
        if record.exc_info:
            shown += formatter.formatException(record.exc_info)
        if record.stack_info:
            shown += record.stack_info
        if SECRET in shown:
            yield f"log {record.name} {record.levelname}: {shown[:120]}"


async def run(scenario: Scenario, recorded: Recorded, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        await scenario(recorded.telemetry)


@pytest.mark.parametrize("name", list(SCENARIOS))
async def test_no_telemetry_and_no_log_record_quotes_the_user_by_default(
    name: str, recorded: Recorded, caplog: pytest.LogCaptureFixture
) -> None:
    await run(SCENARIOS[name], recorded, caplog)
    assert recorded.spans(), "the scenario reported nothing"
    leaks = [*span_leaks(recorded), *metric_leaks(recorded), *log_leaks(caplog.records)]
    assert leaks == []


@pytest.mark.parametrize("name", FAILING_SPANS)
async def test_a_failed_span_says_the_error_type_and_a_fixed_description(
    name: str, recorded: Recorded, caplog: pytest.LogCaptureFixture
) -> None:
    await run(SCENARIOS[name], recorded, caplog)
    failed = [s for s in recorded.spans() if s.status.status_code is StatusCode.ERROR]
    assert failed
    for span in failed:
        kind = (span.attributes or {})["error.type"]
        assert str(span.status.description).startswith(f"{kind}: ")
        (event,) = [e for e in span.events if e.name == "exception"]
        assert (event.attributes or {})["exception.type"] == kind
        assert "line" in str((event.attributes or {})["exception.stacktrace"])


@pytest.mark.parametrize("name", FAILING_SPANS)
async def test_content_capture_records_the_exception_as_it_reads(
    name: str, capturing: Recorded, caplog: pytest.LogCaptureFixture
) -> None:
    await run(SCENARIOS[name], capturing, caplog)
    assert list(span_leaks(capturing))
    assert list(log_leaks(caplog.records)) == []  # the logs stay content-free


def test_content_capture_is_a_setting_off_by_default() -> None:
    assert EdenMemoryConfig().telemetry_capture_content is False
    on = chosen_telemetry(EdenMemoryConfig(telemetry="otel", telemetry_capture_content=True))
    off = chosen_telemetry(EdenMemoryConfig(telemetry="otel"))
    assert isinstance(on, OtelTelemetry)
    assert isinstance(off, OtelTelemetry)
    assert on.capture_content
    assert not off.capture_content
