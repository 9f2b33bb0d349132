"""What the model reads back from ``search_facts``: one compact line per fact.

Lines look like the memory context's FIFO (``- [scope] content (age)``), so a model reads
search results and context the same way; a result that a newer one about the same thing
outranks says so in its parentheses, with the newer one's text. No XML escaping: a tool
result is not inside the ``<MemoryContext>`` document. With ``debug``, each fact's scores
follow, labelled and explained as on every other surface (``application.search.score_meaning``).
An empty answer says why (``application.search.empty``): "nothing stored about this" when
there were facts to search, with the best relevance and the line it missed, so the model can
say it does not know; "no facts visible" when there was nothing to search.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eden_memory.application.search import SearchResponse
from eden_memory.application.search.empty import reason, stored_nothing
from eden_memory.application.search.score_meaning import legend, shown
from eden_memory.domain.ages import age_label


def render_results(queries: Sequence[str], response: SearchResponse, now: datetime) -> str:
    asked = ", ".join(f'"{q}"' for q in queries)
    if not response.results:
        return _nothing(asked, response)
    lines = [f"Facts found for {asked}, best first:"]
    contents = {r.fact.id: r.fact.content for r in response.results}
    lines += [
        f"- [{r.fact.scope.value}] {r.fact.content} ({age_label(r.fact.formed_at, now)}"
        + ("" if r.newer is None else f"; outdated by the newer: {contents[r.newer]}")
        + ")"
        for r in response.results
    ]
    if response.debug is not None:
        lines += _debug_lines(response)
    return "\n".join(lines)


def _nothing(asked: str, response: SearchResponse) -> str:
    """An answer the model can use: "nothing stored about this" when there were facts to
    search (and why none came back), else that no fact was visible to search."""
    if stored_nothing(response):
        said = f"nothing stored about this ({reason(response)})"
    else:  # whether the agent holds other users' facts is not the model's to know
        said = "no facts visible (no fact visible to this user and agent)"
    told = f"No facts found for {asked}: {said}."
    if response.debug is None:
        return told
    return "\n".join([told, *_debug_lines(response)])


def _debug_lines(response: SearchResponse) -> list[str]:
    assert response.debug is not None
    info = response.debug
    limits = ", ".join(f"{name} {value:g}" for name, value in info.thresholds.items())
    lines = ["", f"debug: mode {info.mode}; thresholds {limits}"]
    lines += [f"  {line}" for line in legend()]
    gains: dict[str, float] = {}
    for query in info.queries:
        for doc, gain in query.session_bonus.items():
            gains[doc] = max(gain, gains.get(doc, 0.0))
        if query.time_named is not None:
            kind = "a day" if query.time_named.day else "a time"
            lines.append(
                f'  "{query.query}" names {kind}: facts said then x{1 + query.time_factor:g}'
            )
    if info.under_line:
        lines.append(f"  held back under the line {response.line:g}:")
    for r in [*response.results, *info.under_line]:
        session = f" (session +{gains[str(r.fact.id)]:.4f})" if str(r.fact.id) in gains else ""
        newer = "" if r.newer is None else f" newer {r.newer}"
        lines.append(
            f"  {r.fact.id}: relevance {shown(r.relevance)} score {r.score:.4f}{session} "
            f"cosine {_num(r.semantic_score)} bm25 {_num(r.keyword_score)}{newer}"
        )
    timings = ", ".join(
        f"{stage} {seconds * 1000:.1f} ms" for stage, seconds in info.seconds.items()
    )
    lines.append(f"  timings: {timings}")
    return lines


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"
