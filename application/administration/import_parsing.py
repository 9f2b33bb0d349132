"""Reading an export file: every line checked, and every record given to its target agent,
before an import writes anything.

A line that is not JSON, not a record, of another format, or of an agent the import may not
write is refused as ``InvalidInputError`` naming its number.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from eden_memory.application.administration.import_owners import AgentMap
from eden_memory.domain.agent_moves import moved_blob, moved_fact, moved_reflection
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, FactId, ReflectionId, check_id
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection
from eden_memory.domain.problems import reason

FORMAT = "eden-memory-export"
VERSION = 1
_FLOAT32_MAX = 3.4028234663852886e38


@dataclass
class ParsedExport:
    """The records as they will be written (owned by their target agents), with their lines."""

    agents: AgentMap
    header: AgentId | None = None  # set by the header line, which comes first
    targets: dict[AgentId, AgentId] = field(default_factory=dict)
    space: EmbeddingSpace | None = None
    facts: list[tuple[Fact, list[float] | None]] = field(default_factory=list)
    reflections: list[Reflection] = field(default_factory=list)
    blobs: list[ConsolidatedMemory] = field(default_factory=list)
    fact_lines: list[tuple[FactId, AgentId, int]] = field(default_factory=list)
    reflection_lines: list[tuple[ReflectionId, AgentId, int]] = field(default_factory=list)
    _owners: dict[tuple[str, str], AgentId] = field(default_factory=dict)

    def claim(self, kind: str, record_id: str, agent: AgentId) -> None:
        """One id, one agent: a file giving an id to two agents would write one of them."""
        owner = self._owners.setdefault((kind, record_id), agent)
        if owner != agent:
            raise ValueError(f"{kind} id {record_id!r} is given to agents {owner!r} and {agent!r}")

    def target(self, source: AgentId) -> AgentId:
        """Where a record of ``source`` goes; one the import may not write is refused."""
        if source not in self.targets:
            raise ValueError(self.agents.refusal(source, self.header or ""))
        return self.targets[source]


def parse_export(lines: Iterable[str], agents: AgentMap) -> ParsedExport:
    """Validate a whole export; the first bad line raises ``InvalidInputError`` with its number."""
    parsed = ParsedExport(agents)
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
            _take(parsed, record, number)
        # RecursionError: json.loads of a line nested thousands of levels deep.
        except (ValueError, KeyError, TypeError, ValidationError, RecursionError) as error:
            raise InvalidInputError(
                f"line {number} of the import is not valid: {reason(error)}"
            ) from error
    return parsed


def _take(parsed: ParsedExport, record: dict[str, Any], number: int) -> None:
    kind = record["kind"]
    if (number == 1) != (kind == "header"):
        raise ValueError("an export starts with exactly one header line")
    if kind == "header":
        _header(parsed, record)
    elif kind == "fact":
        vector = _vector(record.get("vector"))
        fact = Fact.model_validate(record["fact"])
        fact = moved_fact(fact, parsed.target(fact.agent_id))
        parsed.claim(kind, fact.id, fact.agent_id)
        parsed.facts.append((fact, vector))
        parsed.fact_lines.append((fact.id, fact.agent_id, number))
    elif kind == "reflection":
        reflection = Reflection.model_validate(record["reflection"])
        reflection = moved_reflection(reflection, parsed.target(reflection.agent_id))
        parsed.claim(kind, reflection.id, reflection.agent_id)
        parsed.reflections.append(reflection)
        parsed.reflection_lines.append((reflection.id, reflection.agent_id, number))
    elif kind == "consolidated":
        blob = ConsolidatedMemory.model_validate(record["consolidated"])
        parsed.blobs.append(moved_blob(blob, parsed.target(blob.agent_id)))
    else:
        raise ValueError(f"unknown record kind {kind!r}")


def _header(parsed: ParsedExport, record: dict[str, Any]) -> None:
    if record.get("format") != FORMAT or record.get("version") != VERSION:
        raise ValueError(f"not an {FORMAT} version {VERSION} file")
    # Every export names its agent: the one agent its records may belong to.
    parsed.header = AgentId(check_id(record.get("agent_id"), "the header's agent_id"))
    parsed.targets = parsed.agents.targets(parsed.header)
    if record.get("embedding"):
        parsed.space = EmbeddingSpace(**record["embedding"])


def _vector(value: object) -> list[float] | None:
    """A fact's vector: none, or a list of numbers a float32 can hold (of any length: one of another
    dimension is made again). Anything else would reach the store as it is: SQLite refuses
    it mid-import, the other stores keep it and every cosine it takes part in is NaN."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(_finite_number(x) for x in value):
        raise ValueError("a fact's vector must be a list of finite numbers (float32 range)")
    return [float(x) for x in value]


def _finite_number(value: object) -> bool:
    """A JSON number a float32 store can hold (an integer of 400 digits is not one)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return abs(float(value)) <= _FLOAT32_MAX  # NaN compares false
    except OverflowError:
        return False
