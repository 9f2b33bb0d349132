"""Erasing one user: everything the agent keeps about them, and everything that came only
from them.

The user's own scope and their sessions alone with the agent go whole, as do their messages
in group sessions, with what of those sessions is not formed yet and is not another member's
own words (the agent's replies to them, tools' results, words with no author). Shared memory
is judged by provenance (``domain.erasure``): agent facts and notes whose every source is the
user go; the rest lose the user's words and id; a retired fact the user's words retired is
active again; a blob that absorbed notes that went is rebuilt
from the notes that remain (one consolidation call), or emptied and flagged when no model
can do it. The agent's stored contexts go (they quote shared memory). Last, the store
scrubs its files, so erased text does not survive on disk.

Shared memory is handled before anything is deleted, so an erasure that fails part way can
simply be run again: it still finds the user's sessions, and what it already did is done.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from eden_memory.application.calls import embed
from eden_memory.application.formation.consolidation import Consolidator
from eden_memory.application.spaces import require_space
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.erasure import (
    blob_after_erasure,
    emptied,
    fact_after_erasure,
    reflection_after_erasure,
)
from eden_memory.domain.error_summary import summary
from eden_memory.domain.errors import ConflictError
from eden_memory.domain.ids import AgentId, FactId, ReflectionId, SessionId, UserId
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactQuery, ListingPosition, Stores

log = logging.getLogger("eden_memory.erasure")
_PAGE = 500


@dataclass
class Erasure:
    """What an erasure removed, changed, rebuilt and flagged, by kind."""

    user_scope_records: int = 0
    sessions: list[str] = field(default_factory=list)
    session_scope_records: int = 0
    session_messages: int = 0
    messages_in_group_sessions: int = 0
    # Shared memory, by origin.
    facts_removed: list[FactId] = field(default_factory=list)  # every text was the user's
    facts_reverted: list[FactId] = field(default_factory=list)  # the current text was theirs
    facts_restored: list[FactId] = field(default_factory=list)  # their words had retired it
    facts_cleaned: list[FactId] = field(default_factory=list)  # their history and id taken out
    notes_removed: list[ReflectionId] = field(default_factory=list)
    notes_cleaned: list[ReflectionId] = field(default_factory=list)
    blobs_rebuilt: list[str] = field(default_factory=list)
    # Blobs emptied until a model rebuilds them, with why it could not now.
    blobs_flagged: dict[str, str] = field(default_factory=dict)
    blobs_cleaned: list[str] = field(default_factory=list)
    group_sessions: list[str] = field(default_factory=list)  # the user's id taken out
    # Unformed messages of those sessions that were not a remaining member's own words (the
    # agent's replies, tools' results, words with no author): they may quote the user.
    pending_context_dropped: int = 0


@dataclass
class UserErasure:
    stores: Stores
    embedder: Embedder
    clock: Clock
    consolidator: Consolidator | None  # None: no model; blobs that need one are flagged

    async def erase(self, agent: AgentId, user: UserId) -> Erasure:
        report = Erasure()
        own = ScopeKey.user(agent, user)
        states = await self.stores.session_records.sessions_of_user(agent, user)
        solo = [s.session_id for s in states if s.profile.user_ids == (user,)]
        gone = frozenset(solo)
        skip = {own, *(ScopeKey.session(agent, s) for s in solo)}  # removed whole below
        await self._facts(agent, user, gone, report)
        lost = await self._notes(agent, user, gone, skip, report)
        await self._blobs(agent, user, gone, skip, lost, report)
        report.user_scope_records = await self.stores.revisions.delete_scope(own)
        for session_id in solo:
            report.sessions.append(session_id)
            key = ScopeKey.session(agent, session_id)
            report.session_scope_records += await self.stores.revisions.delete_scope(key)
            report.session_messages += await self.stores.session_records.delete_session(
                agent, session_id
            )
        report.messages_in_group_sessions = (
            await self.stores.session_records.delete_messages_by_author(agent, user)
        )
        for state in states:  # what the group said around them goes too (``outlives_member``)
            if state.session_id not in gone:
                others = [u for u in state.profile.user_ids if u != user]
                report.pending_context_dropped += (
                    await self.stores.session_records.drop_pending_context(
                        agent, state.session_id, others
                    )
                )
        report.group_sessions = list(await self.stores.session_records.remove_user(agent, user))
        # Every session's context may quote what was just removed (agent facts, blobs).
        await self.stores.contexts.drop_contexts(agent)
        await self.stores.revisions.scrub()
        return report

    async def _facts(
        self, agent: AgentId, user: UserId, gone: frozenset[SessionId], report: Erasure
    ) -> None:
        removed: list[FactId] = []
        changed: list[tuple[Fact, Fact]] = []
        async for fact in every_fact(self.stores, agent):
            if fact.scope is Scope.USER and fact.user_id == user:
                continue  # the user's own scope goes whole
            after = fact_after_erasure(fact, user, gone, self.clock.now())
            if after is None:
                removed.append(fact.id)
            elif after is not fact:
                changed.append((fact, after))
        reworded = [after for before, after in changed if after.content != before.content]
        vectors: dict[FactId, list[float]] = {}
        if reworded:
            await require_space(self.stores.facts, self.embedder)
            made = await embed(self.embedder, [f.content for f in reworded], TextRole.PASSAGE)
            vectors = {f.id: v for f, v in zip(reworded, made, strict=True)}
        for before, after in changed:
            try:
                await self.stores.facts.update_fact(after, vectors.get(after.id), before.version)
            except ConflictError:
                # Its earlier text (or its restored state) is held by an active twin already,
                # or a formation changed it meanwhile: the twin keeps the text; this one goes.
                removed.append(before.id)
                continue
            if after.id in vectors:
                report.facts_reverted.append(after.id)
            elif after.is_active and not before.is_active:
                report.facts_restored.append(after.id)
            else:
                report.facts_cleaned.append(after.id)
        await self.stores.fact_records.delete_facts(removed)
        report.facts_removed.extend(removed)

    async def _notes(
        self,
        agent: AgentId,
        user: UserId,
        gone: frozenset[SessionId],
        skip: set[ScopeKey],
        report: Erasure,
    ) -> set[ScopeKey]:
        """Remove and clean notes; returns the keys whose blobs absorbed a removed note."""
        removed: list[Reflection] = []
        cleaned: list[Reflection] = []
        every = await self.stores.buffers.list_reflections(agent, None, include_absorbed=True)
        for note in every:
            if note.key in skip:
                continue
            after = reflection_after_erasure(note, user, gone)
            if after is None:
                removed.append(note)
            elif after is not note:
                cleaned.append(after)
        await self.stores.note_records.purge_reflections([r.id for r in removed], cleaned)
        report.notes_removed.extend(r.id for r in removed)
        report.notes_cleaned.extend(r.id for r in cleaned)
        return {r.key for r in removed if r.absorbed}

    async def _blobs(
        self,
        agent: AgentId,
        user: UserId,
        gone: frozenset[SessionId],
        skip: set[ScopeKey],
        lost: set[ScopeKey],
        report: Erasure,
    ) -> None:
        for blob in await self.stores.note_records.list_consolidated(agent):
            if blob.key in skip:
                continue
            if blob.key in lost:
                await self._rebuild(blob, report)
                continue
            after = blob_after_erasure(blob, user, gone)
            if after is not blob:
                await self._store(after, blob.version)
                report.blobs_cleaned.append(blob.key.as_text())

    async def _rebuild(self, blob: ConsolidatedMemory, report: Erasure) -> None:
        """Empty and flag the blob first (its text held erased notes), then rebuild it from
        the notes it keeps; without a model, or if the call fails, it stays flagged."""
        name = blob.key.as_text()
        await self._store(emptied(blob, self.clock.now()), blob.version)
        kept = await self.stores.buffers.list_reflections(blob.agent_id, blob.key, True)
        if not kept:
            flagged = await self.stores.buffers.get_consolidated([blob.key])
            if blob.key in flagged:  # nothing remains to rebuild from: empty is the blob
                current = flagged[blob.key]
                await self._store(current.evolve(needs_rebuild=False), current.version)
            report.blobs_rebuilt.append(name)
            return
        if self.consolidator is None:
            report.blobs_flagged[name] = "no model is configured"
            return
        try:
            outcome = await self.consolidator.consolidate(blob.key, ModelRole.REFLECTION_FREE)
        except Exception as error:  # any failure keeps the flag: the next consolidation retries
            log.warning("rebuilding %s after an erasure failed: %s", name, summary(error))
            report.blobs_flagged[name] = f"{type(error).__name__}: {error}"
            return
        if outcome is not None and outcome.status == "consolidated":
            report.blobs_rebuilt.append(name)
        elif outcome is None:
            report.blobs_flagged[name] = "nothing was consolidated"
        else:
            report.blobs_flagged[name] = outcome.error or outcome.status

    async def _store(self, blob: ConsolidatedMemory, expected_version: int) -> None:
        if not await self.stores.buffers.replace_consolidated(blob, expected_version):
            raise ConflictError(
                f"the memory of {blob.key.as_text()} changed during the erasure; run it again"
            )


async def every_fact(stores: Stores, agent: AgentId) -> AsyncIterator[Fact]:
    """Every fact of the agent, any status, a page at a time (keyset paging)."""
    after: ListingPosition | None = None
    while True:
        page = await stores.fact_records.list_facts(
            FactQuery(agent, status=None, limit=_PAGE, after=after)
        )
        for fact in page:
            yield fact
        if len(page) < _PAGE:
            return
        after = ListingPosition.after(page[-1])
