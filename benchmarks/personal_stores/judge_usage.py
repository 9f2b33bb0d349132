"""What the judge cost in a run: its calls, their tokens, and the searches it failed on.

A ``Telemetry`` that counts, without the text of anything: the model calls made for the
purpose ``judge`` (with the tokens the server reported) and the judge steps that failed
(the search kept its results). Passed to the memory that runs with the judge on.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from eden_memory.ports.telemetry import Attribute

PURPOSE = "judge"
FAILED = "eden_memory.judge.failed"


@dataclass
class _Step:
    attributes: dict[str, Attribute] = field(default_factory=dict)

    def set(self, key: str, value: Attribute) -> None:
        self.attributes[key] = value


@dataclass
class _Call:
    tokens: list[tuple[int, int]]

    def answered(self, model: str, input_tokens: int, output_tokens: int | None) -> None:
        self.tokens.append((input_tokens, output_tokens or 0))


@dataclass
class JudgeUsage:
    """Counts the judge's model calls and tokens, and its failed judgements."""

    calls: int = 0
    tokens: list[tuple[int, int]] = field(default_factory=list)  # (input, output) per answer
    judged: int = 0  # searches the judge was asked about
    failed: dict[str, int] = field(default_factory=dict)  # error type: searches kept

    @contextmanager
    def operation(self, name: str, attributes: Mapping[str, Attribute]) -> Iterator[_Step]:
        step = _Step(dict(attributes))
        try:
            yield step
        finally:
            if name == "eden_memory.search.judge":
                self.judged += 1
                if FAILED in step.attributes:
                    kind = str(step.attributes[FAILED])
                    self.failed[kind] = self.failed.get(kind, 0) + 1

    @contextmanager
    def model_call(self, operation: str, model: str, purpose: str) -> Iterator[_Call]:
        if purpose == PURPOSE:
            self.calls += 1
        yield _Call(self.tokens if purpose == PURPOSE else [])

    def summary(self) -> dict[str, object]:
        answered = max(len(self.tokens), 1)
        return {
            "searches_judged": self.judged,
            "calls": self.calls,
            "answered": len(self.tokens),
            "input_tokens_per_call": sum(i for i, _ in self.tokens) / answered,
            "output_tokens_per_call": sum(o for _, o in self.tokens) / answered,
            "failed_searches_kept": dict(self.failed),
        }
