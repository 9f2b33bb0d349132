"""The Agents SDK's Responses items, as the memory records them.

A run's input under ``session=`` (or one built from ``result.to_input_list()``) starts with
the conversation so far; only what follows the agent's last item is the caller's new turn
(``turn_input``). The memory's own ``search_facts`` calls and results are left out
(``said``): memory read back would be formed again from its echo.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence, Set
from typing import Any

from eden_memory.adapters.tools.definitions import NAME

# What a caller sends: every other item (the agent's messages, tool calls and their
# outputs, reasoning) was produced by a run, and a run recorded it.
_CALLER_ROLES = {"user", "system", "developer"}


def turn_input(value: str | Sequence[Any]) -> list[Any]:
    """The items a run's caller added for this turn: what follows the agent's last item."""
    items = [{"role": "user", "content": value}] if isinstance(value, str) else list(value)
    produced = [i for i, item in enumerate(items) if not _from_caller(item)]
    return items[produced[-1] + 1 :] if produced else items


def _from_caller(item: object) -> bool:
    if not isinstance(item, Mapping):
        return False
    return item.get("type", "message") == "message" and item.get("role") in _CALLER_ROLES


def memory_calls(items: Sequence[Any]) -> set[str]:
    """The call ids of the memory's own ``search_facts`` calls among ``items``."""
    return {
        str(item.get("call_id"))
        for item in items
        if isinstance(item, Mapping)
        and item.get("type") == "function_call"
        and item.get("name") == NAME
    }


def said(
    items: Sequence[Any], author: str | None = None, calls: Set[str] = frozenset()
) -> list[Any]:
    """``items`` without the memory's own tool calls and their results (those of ``calls``
    too, made in an earlier batch), user messages attributed to ``author``."""
    own = memory_calls(items) | calls
    kept = [item for item in items if not (isinstance(item, Mapping) and _call_id(item) in own)]
    return [
        {**item, "author_id": author}
        if isinstance(item, Mapping) and item.get("role") == "user" and author
        else item
        for item in kept
    ]


def _call_id(item: Mapping[str, Any]) -> str | None:
    call = item.get("call_id")
    return None if call is None else str(call)


def same_items(stored: Sequence[Any], items: Sequence[Any]) -> bool:
    """Whether two item lists hold the same items, as JSON (what SDK sessions store)."""
    return len(stored) == len(items) and all(
        _canonical(a) == _canonical(b) for a, b in zip(stored, items, strict=True)
    )


def _canonical(item: object) -> str:
    return json.dumps(item, sort_keys=True, default=str)
