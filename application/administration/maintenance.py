"""Maintenance: moving stored facts to a new embedding model."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from eden_memory.application.calls import embed
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.ids import AgentId
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactQuery, FactRecords, ListingPosition


async def reembed(
    facts: FactRecords,
    embedder: Embedder,
    agent_ids: Sequence[AgentId],
    batch_size: int = 256,
    on_progress: Callable[[int], None] | None = None,
) -> int:
    """Embed every fact of these agents again with ``embedder``; returns facts moved.

    The store switches to the new space at the first batch; facts not yet moved stay out of
    semantic search (never mixed) until their batch is written.
    """
    moved = 0
    for agent_id in agent_ids:
        after: ListingPosition | None = None  # keyset paging: re-embedding moves no fact in
        while True:  # the listing order (time, id), so the position stays valid
            query = FactQuery(agent_id, status=None, limit=batch_size, after=after)
            page = await facts.list_facts(query)
            if not page:
                break
            vectors = await embed(embedder, [f.content for f in page], TextRole.PASSAGE)
            await facts.reembed_facts(
                embedder.space, {f.id: v for f, v in zip(page, vectors, strict=True)}
            )
            moved += len(page)
            after = ListingPosition.after(page[-1])
            if on_progress is not None:
                on_progress(len(page))
    return moved
