"""What ``search`` prints after its table: why it is empty, and with ``--debug`` how it ran.

An empty table is never left to speak for itself: a line beneath it (on standard error when
piped, like the scores' legend) says whether hits fell under the relevance line, nothing
matched, or nothing was visible to search (``application.search.empty``). With ``--json``
the same goes out as JSON Lines after the results: ``{"empty": ...}`` when there are none,
``{"debug": ...}`` with ``--debug``, so a script reading objects never meets plain text.
"""

from __future__ import annotations

import json
from typing import Any

from eden_memory.application.search.empty import nothing_found
from eden_memory.application.search.score_meaning import shown
from eden_memory.application.search.shapes import SearchDebug, SearchResponse, SearchResult
from eden_memory.cli.output import notes, rows, say


def explain(found: SearchResponse, agent: str, as_json: bool) -> None:
    """Why ``found`` is empty, then its debug detail when asked for."""
    why = nothing_found(found, agent)
    if as_json:
        if why is not None:
            say(_line({"empty": _empty(found, why)}))
        if found.debug is not None:
            say(_line({"debug": _debug(found, found.debug)}))
        return
    if why is not None:
        notes([f"({why})"])
    if found.debug is not None:
        _debug_text(found, found.debug)


def _empty(found: SearchResponse, why: str) -> dict[str, Any]:
    return {
        "why": None if found.why_empty is None else found.why_empty.value,
        "reason": why,
        "abstained": found.abstained,
        "best_relevance": found.best_relevance,
        "line": found.line,
    }


def _debug(found: SearchResponse, info: SearchDebug) -> dict[str, Any]:
    return {
        "mode": info.mode,
        "fusion": info.fusion,
        "thresholds": info.thresholds,
        "line": found.line,
        "best_relevance": found.best_relevance,
        "abstained": found.abstained,
        "under_line": _listed(info.under_line),
        "seconds": info.seconds,
        "expansion": info.expansion,
        "rerank": info.rerank,
        "judge": info.judge,
        "not_answering": _listed(info.not_answering),
    }


def _listed(hits: list[SearchResult]) -> list[dict[str, Any]]:
    return [{"id": r.fact.id, "relevance": r.relevance, "content": r.fact.content} for r in hits]


def _debug_text(found: SearchResponse, info: SearchDebug) -> None:
    timings = ", ".join(f"{k} {v * 1000:.2f} ms" for k, v in info.seconds.items())
    say(f"timings: {timings}")
    line = f"relevance {found.line:g}" if found.line else "none (abstention off)"
    say(f"line: {line}; best relevance {shown(found.best_relevance)}")
    for step, note in (
        ("expansion", info.expansion),
        ("rerank", info.rerank),
        ("judge", info.judge),
    ):
        if note:
            say(f"{step}: {note}")
    _held(f"held back under the line {found.line:g}:", info.under_line)
    _held("held back, the judge said none answers:", info.not_answering)


def _held(title: str, hits: list[SearchResult]) -> None:
    if hits:
        say(title)
        held = [[shown(r.relevance), r.fact.id, r.fact.content] for r in hits]
        rows(("relevance", "id", "content"), held, stack=("id", "content"))


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)
