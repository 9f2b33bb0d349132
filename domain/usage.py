"""Usage values: what LLM and embedding calls cost, as frozen numbers that add and subtract.

A ``UsageSnapshot`` is keyed by (purpose, model) for LLM calls and by model for embeddings,
because that is how providers price work and how a formation report explains it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Self, TypeVar

K = TypeVar("K")


@dataclass(frozen=True)
class _Tally:
    def _combine(self, other: Self, sign: int) -> Self:
        changes = {
            f.name: getattr(self, f.name) + sign * getattr(other, f.name) for f in fields(self)
        }
        return replace(self, **changes)

    def _scaled(self, sign: int) -> Self:
        return replace(self, **{f.name: sign * getattr(self, f.name) for f in fields(self)})

    def __add__(self, other: Self) -> Self:
        return self._combine(other, 1)

    def __sub__(self, other: Self) -> Self:
        return self._combine(other, -1)

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


TallyT = TypeVar("TallyT", bound=_Tally)


@dataclass(frozen=True)
class LLMTally(_Tally):
    """LLM calls (failed ones included, and also counted in ``failures``) and their tokens."""

    calls: int = 0
    failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True)
class EmbeddingTally(_Tally):
    """Embedding calls (as the caller made them, not provider batches), texts and tokens."""

    calls: int = 0
    failures: int = 0
    texts: int = 0
    input_tokens: int = 0


def _merge(a: Mapping[K, TallyT], b: Mapping[K, TallyT], sign: int) -> dict[K, TallyT]:
    """Add (``sign`` 1) or subtract (-1) two tables; entries that come to zero are dropped."""
    merged = dict(a)
    for key, tally in b.items():
        base = merged.get(key)
        merged[key] = base._combine(tally, sign) if base is not None else tally._scaled(sign)
    return {key: tally for key, tally in merged.items() if tally}


@dataclass(frozen=True)
class UsageSnapshot:
    """Usage at one moment; ``after - before`` is the usage of what ran in between."""

    llm: Mapping[tuple[str, str], LLMTally] = field(default_factory=dict)
    embeddings: Mapping[str, EmbeddingTally] = field(default_factory=dict)

    def __add__(self, other: UsageSnapshot) -> UsageSnapshot:
        return UsageSnapshot(
            _merge(self.llm, other.llm, 1), _merge(self.embeddings, other.embeddings, 1)
        )

    def __sub__(self, other: UsageSnapshot) -> UsageSnapshot:
        return UsageSnapshot(
            _merge(self.llm, other.llm, -1),
            _merge(self.embeddings, other.embeddings, -1),
        )

    @property
    def llm_total(self) -> LLMTally:
        return sum(self.llm.values(), LLMTally())

    @property
    def embedding_total(self) -> EmbeddingTally:
        return sum(self.embeddings.values(), EmbeddingTally())

    def llm_by_purpose(self) -> dict[str, LLMTally]:
        return _group(self.llm, lambda key: key[0])

    def llm_by_model(self) -> dict[str, LLMTally]:
        return _group(self.llm, lambda key: key[1])


def _group(
    tallies: Mapping[tuple[str, str], LLMTally], name_of: Callable[[tuple[str, str]], str]
) -> dict[str, LLMTally]:
    grouped: dict[str, LLMTally] = {}
    for key, tally in tallies.items():
        name = name_of(key)
        grouped[name] = grouped.get(name, LLMTally()) + tally
    return grouped
