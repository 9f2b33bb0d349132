"""Export and import of one agent's memory as JSON Lines, with nothing lost on a round trip.

Line 1 is a header; then one record per line: ``fact`` (with its vector), ``reflection``,
``consolidated``. Import checks every line, and whose memory each record is, before it
writes anything (``import_parsing``, ``import_owners``).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from eden_memory.application.administration.import_owners import AgentMap, held_ids
from eden_memory.application.administration.import_parsing import FORMAT, VERSION, parse_export
from eden_memory.application.calls import embed
from eden_memory.application.spaces import require_space
from eden_memory.domain.embedding_space import EmbeddingSpace, TextRole
from eden_memory.domain.ids import AgentId, FactId
from eden_memory.domain.models import ConsolidatedMemory, Fact
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import (
    BufferStore,
    FactQuery,
    FactRecords,
    FactStore,
    ListingPosition,
    NoteRecords,
)

PAGE = 500


async def export_agent(
    facts: FactRecords, buffers: NoteRecords, agent_id: AgentId, now: datetime
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
            yield _line("fact", fact.exported(), vector=vectors.get(fact.id))
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
    reflections_already_present: int = 0
    consolidated: int = 0
    consolidated_kept_newer: list[str] = field(default_factory=list)


async def import_records(
    facts: FactStore,
    buffers: BufferStore,
    embedder: Embedder,
    lines: Iterable[str],
    on_progress: Callable[[int], None] | None = None,
    agents: AgentMap | None = None,
) -> ImportReport:
    """Write a validated export into the agents ``agents`` allows (by default the header's);
    vectors of another embedding space are made again.

    A fact's vector is reused when the fact says it is of the embedder's space (an export
    taken during a re-embedding holds facts of two spaces). An embedder of another space
    than the store's, or an id another agent holds, is refused before anything is written.
    """
    parsed = parse_export(lines, agents or AgentMap())
    space = await require_space(facts, embedder)
    held = await held_ids(facts, buffers, parsed.fact_lines, parsed.reflection_lines)
    report = ImportReport()
    for start in range(0, len(parsed.facts), PAGE):
        batch = parsed.facts[start : start + PAGE]
        await _write_facts(facts, embedder, space, batch, held.facts, report)
        if on_progress is not None:
            on_progress(len(batch))
    fresh = [r for r in parsed.reflections if r.id not in held.reflections]
    await buffers.add_reflections(fresh)
    report.reflections = len(fresh)
    report.reflections_already_present = len(parsed.reflections) - len(fresh)
    await _write_blobs(buffers, parsed.blobs, report)
    return report


async def _write_facts(
    facts: FactStore,
    embedder: Embedder,
    space: EmbeddingSpace,
    batch: list[tuple[Fact, list[float] | None]],
    present: set[FactId],
    report: ImportReport,
) -> None:
    redo = [
        i
        for i, (f, v) in enumerate(batch)
        if f.embedding_space != space or v is None or len(v) != space.dimension
    ]
    fresh = await embed(embedder, [batch[i][0].content for i in redo], TextRole.PASSAGE)
    vectors = [v or [] for _, v in batch]
    written = [f for f, _ in batch]
    for i, vector in zip(redo, fresh, strict=True):
        vectors[i] = vector
        written[i] = written[i].evolve(embedding_model=space.model, embedding_dim=space.dimension)
    stored = await facts.add_facts(written, vectors)
    report.facts_reembedded += len(redo)
    new = [f.id == s.id and f.id not in present for f, s in zip(written, stored, strict=True)]
    report.facts += sum(new)
    report.facts_already_present += len(new) - sum(new)


async def _write_blobs(
    buffers: BufferStore, blobs: list[ConsolidatedMemory], report: ImportReport
) -> None:
    """A blob replaces the stored one of its key only if it is of a newer version."""
    current = await buffers.get_consolidated([b.key for b in blobs])
    for blob in blobs:
        existing = current.get(blob.key)
        if existing is not None and existing.version >= blob.version:
            report.consolidated_kept_newer.append(blob.key.as_text())
            continue
        await buffers.replace_consolidated(blob, None)
        report.consolidated += 1
