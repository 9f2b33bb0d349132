"""Export and import of one agent's memory as JSON Lines, with nothing lost on a round trip.

Line 1 is a header; then one record per line: ``fact`` (with its vector), ``reflection``,
``consolidated``. Import checks every line before it writes anything.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from eden_memory.application.calls import embed
from eden_memory.application.spaces import require_space
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import BufferStore, FactQuery, FactStore, ListingPosition

FORMAT = "eden-memory-export"
VERSION = 1
PAGE = 500
_FLOAT32_MAX = 3.4028234663852886e38


async def export_agent(
    facts: FactStore, buffers: BufferStore, agent_id: AgentId, now: datetime
) -> AsyncIterator[str]:
    """Every fact (any status, with vector), reflection and blob of one agent, one per line."""
    space = await facts.embedding_space()
    header: dict[str, Any] = {"kind": "header", "format": FORMAT, "version": VERSION}
    header |= {"agent_id": agent_id, "exported_at": now.isoformat()}
    header["embedding"] = {"model": space.model, "dimension": space.dimension} if space else None
    yield json.dumps(header)
    after: ListingPosition | None = None  # keyset paging: no page skips the earlier ones
    while True:
        page = await facts.list_facts(FactQuery(agent_id, status=None, limit=PAGE, after=after))
        vectors = await facts.get_vectors([f.id for f in page])
        for fact in page:
            yield _line("fact", fact.model_dump(mode="json"), vector=vectors.get(fact.id))
        if len(page) < PAGE:
            break
        after = ListingPosition.after(page[-1])
    for reflection in await buffers.list_reflections(agent_id, None, include_absorbed=True):
        yield _line("reflection", reflection.model_dump(mode="json"))
    for blob in await buffers.list_consolidated(agent_id):
        yield _line("consolidated", blob.model_dump(mode="json"))


def _line(kind: str, record: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"kind": kind, kind: record, **extra}, ensure_ascii=False)


@dataclass
class ImportReport:
    facts: int = 0
    facts_already_present: int = 0
    facts_reembedded: int = 0
    reflections: int = 0
    consolidated: int = 0
    consolidated_kept_newer: list[str] = field(default_factory=list)


@dataclass
class _Parsed:
    space: EmbeddingSpace | None = None
    facts: list[tuple[Fact, list[float] | None]] = field(default_factory=list)
    reflections: list[Reflection] = field(default_factory=list)
    blobs: list[ConsolidatedMemory] = field(default_factory=list)


def parse_export(lines: Iterable[str]) -> _Parsed:
    """Validate a whole export; the first bad line raises ``InvalidInputError`` with its number."""
    parsed = _Parsed()
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
            _take(parsed, record, first=number == 1)
        # RecursionError: json.loads of a line nested thousands of levels deep.
        except (ValueError, KeyError, TypeError, ValidationError, RecursionError) as error:
            raise InvalidInputError(f"line {number} of the import is not valid: {error}") from error
    return parsed


def _take(parsed: _Parsed, record: dict[str, Any], first: bool) -> None:
    kind = record["kind"]
    if first != (kind == "header"):
        raise ValueError("an export starts with exactly one header line")
    if kind == "header":
        if record.get("format") != FORMAT or record.get("version") != VERSION:
            raise ValueError(f"not an {FORMAT} version {VERSION} file")
        if record.get("embedding"):
            parsed.space = EmbeddingSpace(**record["embedding"])
    elif kind == "fact":
        vector = _vector(record.get("vector"))
        parsed.facts.append((Fact.model_validate(record["fact"]), vector))
    elif kind == "reflection":
        parsed.reflections.append(Reflection.model_validate(record["reflection"]))
    elif kind == "consolidated":
        parsed.blobs.append(ConsolidatedMemory.model_validate(record["consolidated"]))
    else:
        raise ValueError(f"unknown record kind {kind!r}")


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


async def import_records(
    facts: FactStore,
    buffers: BufferStore,
    embedder: Embedder,
    lines: Iterable[str],
    on_progress: Callable[[int], None] | None = None,
) -> ImportReport:
    """Write a validated export; vectors of another embedding space are made again.

    A fact's vector is reused when the fact says it is of the embedder's space (an export
    taken during a re-embedding holds facts of two spaces). An embedder of another space
    than the store's is refused before anything is written.
    """
    parsed = parse_export(lines)
    space = await require_space(facts, embedder)
    report = ImportReport()
    for start in range(0, len(parsed.facts), PAGE):
        batch = parsed.facts[start : start + PAGE]
        redo = [
            i
            for i, (f, v) in enumerate(batch)
            if f.embedding_space != space or v is None or len(v) != space.dimension
        ]
        fresh = await embed(embedder, [batch[i][0].content for i in redo])
        vectors = [v or [] for _, v in batch]
        written = [f for f, _ in batch]
        for i, vector in zip(redo, fresh, strict=True):
            vectors[i] = vector
            written[i] = written[i].evolve(
                embedding_model=space.model, embedding_dim=space.dimension
            )
        present = {f.id for f in await facts.get_facts([f.id for f in written])}
        stored = await facts.add_facts(written, vectors)
        report.facts_reembedded += len(redo)
        new = [f.id == s.id and f.id not in present for f, s in zip(written, stored, strict=True)]
        report.facts += sum(new)
        report.facts_already_present += len(new) - sum(new)
        if on_progress is not None:
            on_progress(len(batch))
    await buffers.add_reflections(parsed.reflections)
    report.reflections = len(parsed.reflections)
    current = await buffers.get_consolidated([b.key for b in parsed.blobs])
    for blob in parsed.blobs:
        existing = current.get(blob.key)
        if existing is not None and existing.version >= blob.version:
            report.consolidated_kept_newer.append(blob.key.as_text())
            continue
        await buffers.replace_consolidated(blob, None)
        report.consolidated += 1
    return report
