"""Consolidation: merge a scope's buffer into its blob with one LLM call and a compare-and-set."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.application.calls import ModelRouter
from eden_memory.application.formation.reports import ConsolidationOutcome
from eden_memory.application.prompts.catalogue import prompt_catalogue
from eden_memory.application.prompts.consolidation import consolidation_prompt, instructions_for
from eden_memory.application.schemas import ConsolidatedText
from eden_memory.domain.blob_checks import blob_problem
from eden_memory.domain.consolidation import (
    ConsolidationPlan,
    apply_consolidation,
    plan_consolidation,
)
from eden_memory.domain.error_summary import frames, summary
from eden_memory.domain.errors import EdenMemoryError
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.models import Reflection
from eden_memory.domain.scaffolding import echoed_scaffolding, scaffolding_of
from eden_memory.domain.scopes import ScopeKey
from eden_memory.domain.settings import ConsolidationSettings
from eden_memory.ports.clock import Clock
from eden_memory.ports.stores import BufferStore

# The logger keeps the name hosts filter by, from before the module moved into a folder.
log = logging.getLogger("eden_memory.application.consolidation")


@dataclass
class Consolidator:
    buffers: BufferStore
    models: ModelRouter
    clock: Clock
    settings: ConsolidationSettings

    async def consolidate(
        self,
        key: ScopeKey,
        role: ModelRole,
        force: bool = False,
        *,
        settings: ConsolidationSettings | None = None,
        instructions: str = "",
    ) -> ConsolidationOutcome | None:
        """Consolidate one key if due. Returns None when there was nothing to do.

        ``settings`` are the agent's own thresholds and word limits (the service's when None);
        ``instructions`` the agent's memory instructions, which its agent-scope blob follows.
        A failure, a lost race or an answer that echoes the prompt, or breaks a rule of
        ``domain.blob_checks`` (``rejected``) leaves the blob and the buffer exactly as they
        were; nothing is absorbed unless the new blob was stored.
        """
        blobs = await self.buffers.get_consolidated([key])
        buffer = await self.buffers.unabsorbed([key])
        current = blobs.get(key)
        kept: list[Reflection] = []
        if current is not None and current.needs_rebuild:  # an erasure took notes it held
            kept = await self.buffers.list_reflections(key.agent_id, key, include_absorbed=True)
        plan = plan_consolidation(key, current, buffer, settings or self.settings, force, kept)
        if plan is None:
            return None
        system, prompt = consolidation_prompt(plan.current, plan.carried_notes, instructions)
        answer = await self.models.ask(role, "consolidation", system, prompt, ConsolidatedText)
        # The owner's instructions are theirs, not our scaffolding: a blob may use their words
        # (a heading they name) without being an echo of the prompt.
        carried = (*plan.carried, *instructions_for(key.scope, instructions).splitlines())
        scaffold = scaffolding_of(f"{system}\n{prompt}", carried, prompt_catalogue())
        echoed = echoed_scaffolding(answer.content, scaffold)
        if echoed:
            echoes = ", ".join(echoed)
            return _rejected(plan, answer.content, f"the answer echoes the prompt ({echoes})")
        problem = blob_problem(key.scope, answer.content, carried, _users(plan))
        if problem is not None:
            return _rejected(plan, answer.content, f"the answer {problem}")
        result = apply_consolidation(plan, answer.content, self.clock.now())
        won = await self.buffers.commit_consolidation(
            result.memory, plan.expected_version, plan.absorbed_ids, self.clock.now()
        )
        return ConsolidationOutcome(
            key.as_text(),
            absorbed=len(plan.absorbed_ids) if won else 0,
            version=result.memory.version if won else None,
            status="consolidated" if won else "lost-race",
            truncated=result.truncated,
        )

    async def consolidate_all(
        self,
        keys: Sequence[ScopeKey],
        role: ModelRole,
        force: bool = False,
        *,
        settings: ConsolidationSettings | None = None,
        instructions: str = "",
    ) -> list[ConsolidationOutcome]:
        """Every due key, concurrently. A key that fails — with any ``Exception``, a bug in a
        client library included — is reported as failed with its buffer left as it was, and
        the others go on; only cancellation and interrupts (``BaseException``) propagate."""
        results = await asyncio.gather(
            *(
                self.consolidate(key, role, force, settings=settings, instructions=instructions)
                for key in keys
            ),
            return_exceptions=True,
        )
        outcomes: list[ConsolidationOutcome] = []
        for key, result in zip(keys, results, strict=True):
            if isinstance(result, Exception):
                outcomes.append(_failed(key, result))
            elif isinstance(result, BaseException):
                raise result
            elif result is not None:
                outcomes.append(result)
        return outcomes


def _users(plan: ConsolidationPlan) -> tuple[str, ...]:
    """The users the blob and its notes came from: whose names the agent's section omits."""
    notes = (u for r in plan.carried_notes for u in r.source_user_ids)
    return tuple(dict.fromkeys((*plan.current.source_user_ids, *notes)))


def _rejected(plan: ConsolidationPlan, answer: str, reason: str) -> ConsolidationOutcome:
    """An answer that repeats the prompt, or breaks a rule on blobs, is not kept: the blob and
    its buffer stay as they were.

    Stripping the echo would keep a text the model did not write as a memory (often the
    current blob and the notes side by side, unmerged); rejecting loses nothing, since the
    notes stay in the context as recent reflections and a later consolidation absorbs them.
    """
    # The answer, and a reason's parenthesis naming what it held (an ungrounded amount, a
    # user's detail), are the caller's to read in the outcome, not the log's.
    log.warning(
        "consolidation of %s rejected, version %d and %d notes kept unabsorbed: %s "
        "(an answer of %d characters)",
        plan.key.as_text(),
        plan.expected_version,
        len(plan.reflections),
        reason.split(" (", 1)[0],
        len(answer),
    )
    return ConsolidationOutcome(plan.key.as_text(), 0, None, "rejected", False, reason)


def _failed(key: ScopeKey, error: Exception) -> ConsolidationOutcome:
    # A provider or store failure is expected now and then; anything else is a bug: say
    # where it was raised. Type and frames only: the message may quote what a user said.
    expected = isinstance(error, EdenMemoryError)
    log.log(
        logging.WARNING if expected else logging.ERROR,
        "consolidation of %s failed, its buffer is kept: %s",
        key.as_text(),
        summary(error) if expected else frames(error),
    )
    reason = f"{type(error).__name__}: {error}"
    return ConsolidationOutcome(key.as_text(), 0, None, "failed", False, reason)
