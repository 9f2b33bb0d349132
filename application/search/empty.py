"""Why a search returned nothing, found out once and said the same way on every surface.

An empty answer means different things to whoever reads it: hits found and held back under
the relevance line, or over it and judged not to answer ("nothing stored about this", an
answer a model can use), facts visible
but none matching, or nothing to search at all (no fact visible to this user and agent, or
none held by the agent). The search tells them apart only when it comes back empty, so a
search with results costs nothing more.
"""

from __future__ import annotations

import asyncio

from eden_memory.application.search.score_meaning import shown
from eden_memory.application.search.shapes import SearchResponse, WhyEmpty
from eden_memory.domain.scopes import ActiveScopes, ScopeKey
from eden_memory.ports.stores import FactReads


async def why_empty(
    facts: FactReads, scopes: ActiveScopes, abstained: int, judged: bool = False
) -> WhyEmpty:
    """Why a search of ``scopes`` that held back ``abstained`` hits returned nothing
    (``judged``: a judge held them back, saying none answers)."""
    if abstained and judged:
        return WhyEmpty.JUDGED_UNANSWERED
    if abstained:
        return WhyEmpty.UNDER_LINE
    keys = [scopes.key(scope) for scope in scopes.fact_scopes]
    visible = await asyncio.gather(*(facts.count_facts(key) for key in keys))
    if any(visible):
        return WhyEmpty.NO_MATCH
    agent = scopes.agent_id
    if await facts.count_facts(ScopeKey.agent(agent)) or await facts.fact_users(agent, None, 1):
        return WhyEmpty.NOT_VISIBLE
    return WhyEmpty.NO_FACTS


def nothing_found(response: SearchResponse, agent_id: str | None = None) -> str | None:
    """Why ``response`` holds no results, as a line under an empty table (None when it
    holds some); the agent is named when ``agent_id`` is given."""
    why = reason(response, agent_id)
    if why is None or response.why_empty is WhyEmpty.NOT_VISIBLE:
        return why
    if response.why_empty is WhyEmpty.UNDER_LINE:
        return f"nothing relevant: {why}; {response.abstained} held back"
    if response.why_empty is WhyEmpty.JUDGED_UNANSWERED:
        return f"nothing answers: {why}; {response.abstained} held back"
    if response.why_empty is WhyEmpty.NO_MATCH:
        return f"nothing matched: {why}"
    return why


def reason(response: SearchResponse, agent_id: str | None = None) -> str | None:
    """The bare reason an empty ``response`` gives (None when it holds results)."""
    why = response.why_empty
    if response.results or why is None:
        return None
    if why is WhyEmpty.UNDER_LINE:
        best = shown(response.best_relevance)
        return f"best relevance {best} under the line {response.line:g}"
    if why is WhyEmpty.JUDGED_UNANSWERED:
        return "the judge read the best hits and none answers the question"
    if why is WhyEmpty.NO_MATCH:
        return "no visible fact passed the retrievers' floors"
    if why is WhyEmpty.NOT_VISIBLE:
        return "no fact visible to this user and agent"
    return "this agent holds no facts" if agent_id is None else f"agent {agent_id!r} holds no facts"


def stored_nothing(response: SearchResponse) -> bool:
    """Whether an empty ``response`` says "nothing stored about this" (there were facts to
    search) rather than "nothing to search"."""
    stored = {WhyEmpty.JUDGED_UNANSWERED, WhyEmpty.UNDER_LINE, WhyEmpty.NO_MATCH}
    return response.why_empty in stored
