"""The Atlas aggregation pipelines, as pure functions (golden-tested to the byte).

* ``$vectorSearch``: the visibility filter inside the stage, ``numCandidates`` scaled to
  the limit (or ``exact: true``), the score from ``{"$meta": "vectorSearchScore"}``
  (Atlas normalises cosine to ``(1 + cos) / 2``; ``cosine_from_atlas`` turns it back).
* ``$search``: ``compound`` with the visibility clauses as ``filter`` (they never score)
  and a fuzzy ``text`` clause on ``content`` as ``must``; score from ``searchScore``.

Every pipeline ends in one ``$project`` keeping only ``_id`` and the score: searches rank
ids, and the caller reads just the facts it keeps (no document, no vector is shipped).
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.adapters.stores.mongo.compat import Document

SCORE = "_score"


def _ranked(meta: str) -> list[Document]:
    """The id and the score of each result, nothing else."""
    return [{"$project": {"_id": 1, SCORE: {"$meta": meta}}}]


def vector_stage(
    index: str, vector: Sequence[float], filter: Document, limit: int, num_candidates: int | None
) -> Document:
    """Approximate search over ``num_candidates``, or exact search (ENN) when it is None."""
    candidates: Document = (
        {"exact": True} if num_candidates is None else {"numCandidates": num_candidates}
    )
    return {
        "$vectorSearch": {
            "index": index,
            "path": "embedding",
            "queryVector": [float(x) for x in vector],
            **candidates,
            "limit": limit,
            "filter": filter,
        }
    }


def vector_search(
    index: str, vector: Sequence[float], filter: Document, limit: int, num_candidates: int | None
) -> list[Document]:
    return [
        vector_stage(index, vector, filter, limit, num_candidates),
        *_ranked("vectorSearchScore"),
    ]


def search_stage(index: str, text: str, clauses: Sequence[Document]) -> Document:
    fuzzy_text = {"text": {"query": text, "path": "content", "fuzzy": {"maxEdits": 1}}}
    return {
        "$search": {
            "index": index,
            "compound": {"filter": list(clauses), "must": [fuzzy_text]},
        }
    }


def text_search(index: str, text: str, clauses: Sequence[Document], limit: int) -> list[Document]:
    return [search_stage(index, text, clauses), {"$limit": limit}, *_ranked("searchScore")]


def cosine_from_atlas(score: float) -> float:
    """Atlas reports cosine as ``(1 + cos) / 2``; the store's contract is plain cosine."""
    return 2.0 * score - 1.0
