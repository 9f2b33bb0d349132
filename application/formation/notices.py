"""Model output a formation refused or repaired is logged as well as reported.

Logged when it is decided, not when the formation ends: a formation that fails afterwards
returns no report, and its retry carries out the saved plan without asking the model again.
The log says what and why, never the text: the model's words quote the conversation (the
report, which the caller reads, holds the text).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from eden_memory.application.formation.reports import FormationReport, Rejected
from eden_memory.domain.dedup import Override

log = logging.getLogger("eden_memory.formation")


def log_rejected(report: FormationReport, what: str, items: Sequence[Rejected]) -> None:
    """One warning per refused fact or reflection, with why and the text's length."""
    for item in items:
        log.warning(
            "formation of %s/%s: %s rejected, %s (%d characters)",
            report.agent_id,
            report.session_id,
            what,
            item.why,
            len(item.content),
        )


def log_moved(report: FormationReport, what: str, items: Sequence[Rejected]) -> None:
    """One warning per fact or note filed as the agent's and kept as the user's own, with
    why and the text's length (the text is a user's detail: the report holds it)."""
    for item in items:
        log.warning(
            "formation of %s/%s: %s moved from agent to user memory, %s (%d characters)",
            report.agent_id,
            report.session_id,
            what,
            item.why,
            len(item.content),
        )


def log_capped(report: FormationReport, what: str, capped: int, cap: int) -> None:
    """One warning for the items past a cap: a runaway answer is one line, not thousands."""
    if capped:
        log.warning(
            "formation of %s/%s: %d %s past the cap of %d not kept",
            report.agent_id,
            report.session_id,
            capped,
            what,
            cap,
        )


def log_overrides(report: FormationReport, overrides: Sequence[Override]) -> None:
    """One warning per dedup decision not carried out as the model gave it. Why is in the
    report: it may quote the model's answer (a target id or an action it made up)."""
    for override in overrides:
        log.warning(
            "formation of %s/%s: dedup decision for new fact %d carried out as %s",
            report.agent_id,
            report.session_id,
            override.fact_index,
            override.applied.value,
        )
