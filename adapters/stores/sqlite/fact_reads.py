"""Which partitions a read of facts covers: the domain's visibility as keys and as SQL.

Visibility is the domain's rule (``FactVisibility``) turned into the list of (agent, scope,
owner) partitions a viewer may see; every fact query, semantic and keyword search included,
is restricted to them in SQL, before ordering or limiting. Shared by the facts and ranking
concerns.
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.adapters.stores.sqlite.codec import KeyCols
from eden_memory.domain.scopes import FactVisibility, Scope


def visible_partitions(visibility: FactVisibility) -> list[KeyCols]:
    """The (agent, scope, owner) partitions whose facts ``visibility`` admits."""
    parts: list[KeyCols] = []
    if Scope.AGENT in visibility.scopes:
        parts.append((visibility.agent_id, Scope.AGENT.value, ""))
    if Scope.USER in visibility.scopes and visibility.user_id is not None:
        parts.append((visibility.agent_id, Scope.USER.value, visibility.user_id))
    return parts


def partition_filter(parts: Sequence[KeyCols], *, by_index: bool = True) -> tuple[str, list[str]]:
    """A WHERE fragment admitting exactly ``parts`` (never empty: callers check first).

    ``by_index=False`` writes each column as ``+column``, which no index can serve: a read
    of rows found by id filters them by partition and cannot be planned along a partition's
    index instead (which, without the planner's statistics, it was: every fact of the
    viewer's partitions read to keep 80).
    """
    p = "" if by_index else "+"
    clause = f"({p}agent_id = ? AND {p}scope = ? AND {p}owner = ?)"
    return "(" + " OR ".join([clause] * len(parts)) + ")", [v for part in parts for v in part]
