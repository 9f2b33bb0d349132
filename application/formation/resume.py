"""Finishing what an interrupted formation planned, and saving a plan before writing it.

See ``journal`` for why a retry carries out the saved plan rather than planning again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from eden_memory.application.calls import timed
from eden_memory.application.formation.dedup import FactWriter
from eden_memory.application.formation.journal import FormationJournal
from eden_memory.application.formation.planned import PlannedFacts
from eden_memory.application.formation.reports import FormationReport
from eden_memory.application.spaces import require_space
from eden_memory.domain.error_summary import summary
from eden_memory.domain.ids import MessageId
from eden_memory.domain.models import Claim
from eden_memory.domain.scopes import ActiveScopes
from eden_memory.ports.stores import SessionStore

log = logging.getLogger("eden_memory.formation")


def saved_plan(claim: Claim) -> FormationJournal | None:
    """The plan saved on the claim's session, if there is one this release can read."""
    if claim.plan is None:
        return None
    try:
        return FormationJournal.model_validate_json(claim.plan)
    except ValueError as error:  # damaged, or from an incompatible release: decide afresh
        log.warning(
            "the saved formation plan of session %s is unreadable and was set aside: %s",
            claim.session.session_id,
            summary(error),  # the plan holds what was said: the message may quote it
        )
        return None


async def resume(
    saved: FormationJournal, writer: FactWriter, scopes: ActiveScopes, report: FormationReport
) -> list[str]:
    """Carry out a saved plan; returns the texts it formed (for the reflection prompt).

    A worker whose embedder is not the store's is refused here, before the plan could be
    lost: it would otherwise find nothing new to embed and complete the claim.
    """
    await require_space(writer.facts, writer.embedder)
    report.resumed_plan = True
    planned = await writer.with_vectors(saved.planned(scopes), report)
    async with timed(report.stage_seconds, "fact_writes"):
        (await writer.write(planned, scopes)).into(report)
    return planned.texts()


async def save(
    sessions: SessionStore,
    claim: Claim,
    planned: PlannedFacts,
    covered: Sequence[MessageId],
    scopes: ActiveScopes,
) -> None:
    """Keep ``planned`` on the session until the claim completes (nothing to keep: no call)."""
    if not planned.kept:
        return
    every = tuple(dict.fromkeys([*covered, *(m.id for m in claim.messages)]))
    journal = FormationJournal.of(planned, every, scopes)
    await sessions.save_plan(claim, journal.model_dump_json())
