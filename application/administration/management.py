"""Management: what a memory UI does — read, edit, delete, inspect — as an API.

Every call is confined to one agent: an id of another agent's memory is "not found". Every
id and key is checked here, before any store sees it, so a bad one is refused the same way
(``InvalidInputError`` naming the argument) whatever the store.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Concatenate, Generic, ParamSpec, Protocol, TypeVar, overload

from eden_memory.application.administration.edits import saved, unchanged, version_of
from eden_memory.application.arguments import optional_member, page
from eden_memory.application.calls import embed
from eden_memory.application.spaces import require_space
from eden_memory.domain.consolidation import replace_content
from eden_memory.domain.embedding_space import TextRole
from eden_memory.domain.errors import (
    ConflictError,
    InvalidInputError,
    NotFoundError,
    StaleEditError,
)
from eden_memory.domain.ids import (
    AgentId,
    FactId,
    ReflectionId,
    UserId,
    agent_id_of,
    check_id,
    check_optional_id,
)
from eden_memory.domain.models import (
    ConsolidatedMemory,
    Fact,
    FactRevision,
    FactStatus,
    Reflection,
    ReflectionRevision,
)
from eden_memory.domain.scopes import Scope, ScopeKey, check_key
from eden_memory.domain.settings import MemorySettings
from eden_memory.domain.text import check_encodable, single_line
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactQuery, ListingPosition, Stores


@dataclass
class Management:
    stores: Stores
    embedder: Embedder
    clock: Clock
    settings: MemorySettings

    # Facts ---------------------------------------------------------------------------

    async def list_facts(
        self,
        agent_id: str,
        *,
        user_id: str | None = None,
        scope: Scope | None = None,
        status: FactStatus | None = FactStatus.ACTIVE,
        limit: int = 100,
        offset: int = 0,
        after: ListingPosition | None = None,
    ) -> list[Fact]:
        """Newest first; ``after`` continues past the last fact of a page (keyset paging)."""
        agent = agent_id_of(agent_id)
        user = check_optional_id(user_id, "user_id")
        query = FactQuery(
            agent,
            optional_member(Scope, scope, "scope"),
            UserId(user) if user is not None else None,
            optional_member(FactStatus, status, "status"),
            *page(limit, offset),
            after,
        )
        return await self.stores.fact_records.list_facts(query)

    async def get_fact(self, agent_id: str, fact_id: str) -> Fact:
        return await self._fact(*_fact_ids(agent_id, fact_id))

    async def _fact(self, agent: AgentId, fact: FactId) -> Fact:
        found = await self.stores.facts.get_facts([fact])
        if not found or found[0].agent_id != agent:
            raise NotFoundError(f"agent {agent!r} has no fact {fact!r}")
        return found[0]

    async def fact_history(self, agent_id: str, fact_id: str) -> list[FactRevision]:
        """Every content the fact has had, oldest first, the current one last."""
        fact = await self.get_fact(agent_id, fact_id)
        current = FactRevision(
            version=fact.version, content=fact.content, replaced_at=fact.updated_at
        )
        return [*fact.history, current]

    async def edit_fact(
        self,
        agent_id: str,
        fact_id: str,
        content: str,
        reason: str = "edited",
        *,
        expected_version: int,
    ) -> Fact:
        """Change a fact's text (re-embedded); the old text stays in its history.

        ``expected_version`` is the version the new text was based on (the one the person
        saw): if the fact has moved on, ``StaleEditError`` shows the newer text and nothing
        is written. The new vector is the embedder's, and the fact records its model: an
        embedder of another model than the store's is refused before it is called.
        """
        ids = _fact_ids(agent_id, fact_id)
        based_on = version_of(expected_version)
        text = single_line(content, max_words=self.settings.facts.max_words, what="fact")
        check_encodable(reason, "reason")
        fact = await self._fact(*ids)
        what = f"fact {fact.id}"
        unchanged(what, based_on, fact)
        space = await require_space(self.stores.facts, self.embedder)
        [vector] = await embed(self.embedder, [text], TextRole.PASSAGE)
        revised = fact.revised(text, self.clock.now(), reason, space=space)
        write = self.stores.facts.update_fact(revised, vector, based_on)
        return await saved(write, what, based_on, lambda: self._fact(*ids))

    async def delete_fact(self, agent_id: str, fact_id: str) -> None:
        """Remove a fact for good (a person's decision, unlike an LLM's retirement)."""
        fact = await self.get_fact(agent_id, fact_id)
        await self.stores.fact_records.delete_facts([fact.id])

    # Reflections -------------------------------------------------------------------

    async def list_reflections(
        self, agent_id: str, key: ScopeKey | None = None, include_absorbed: bool = False
    ) -> list[Reflection]:
        agent = agent_id_of(agent_id)
        scope_key = None if key is None else check_key(key)
        if scope_key is not None and scope_key.agent_id != agent:
            # Not an empty list: the caller mixed two agents up and should hear so.
            raise InvalidInputError(
                f"key {scope_key.as_text()!r} is of agent {scope_key.agent_id!r}, "
                f"not of agent {agent!r}"
            )
        return await self.stores.buffers.list_reflections(agent, scope_key, include_absorbed)

    async def get_reflection(self, agent_id: str, reflection_id: str) -> Reflection:
        """One reflection of the agent, buffered or absorbed."""
        return await self._reflection(*_reflection_ids(agent_id, reflection_id))

    async def _reflection(self, agent: AgentId, reflection: ReflectionId) -> Reflection:
        found = await self.stores.buffers.get_reflection(reflection)
        if found is None or found.agent_id != agent:
            raise NotFoundError(f"agent {agent!r} has no reflection {reflection!r}")
        return found

    async def reflection_history(
        self, agent_id: str, reflection_id: str
    ) -> list[ReflectionRevision]:
        """Every content the reflection has had, oldest first, the current one last."""
        current = await self._reflection(*_reflection_ids(agent_id, reflection_id))
        since = current.history[-1].replaced_at if current.history else current.created_at
        now = ReflectionRevision(
            version=current.version, content=current.content, replaced_at=since
        )
        return [*current.history, now]

    async def edit_reflection(
        self,
        agent_id: str,
        reflection_id: str,
        content: str,
        reason: str = "edited",
        *,
        expected_version: int,
    ) -> Reflection:
        """Edit a buffered reflection based on ``expected_version`` (``StaleEditError`` once it
        moved on); the old text stays in its history. Absorbed ones live on in their blob
        (edit that instead)."""
        ids = _reflection_ids(agent_id, reflection_id)
        based_on = version_of(expected_version)
        text = single_line(
            content, max_words=self.settings.reflections.max_words, what="reflection"
        )
        check_encodable(reason, "reason")
        current = await self._reflection(*ids)
        if current.absorbed:
            raise ConflictError("this reflection is already absorbed; edit the consolidated memory")
        what = f"reflection {current.id}"
        unchanged(what, based_on, current)
        write = self.stores.note_records.update_reflection(
            current.revised(text, self.clock.now(), reason), based_on
        )
        return await saved(write, what, based_on, lambda: self._reflection(*ids))

    async def delete_reflection(self, agent_id: str, reflection_id: str) -> None:
        current = await self._reflection(*_reflection_ids(agent_id, reflection_id))
        if current.absorbed:
            raise ConflictError("this reflection is already absorbed; edit the consolidated memory")
        await self.stores.note_records.delete_reflections([current.id])

    # Consolidated blobs ------------------------------------------------------------

    async def get_consolidated(self, key: ScopeKey) -> ConsolidatedMemory:
        """The blob of a key (an empty one, version 0, if nothing was consolidated yet)."""
        key = check_key(key)
        found = await self.stores.buffers.get_consolidated([key])
        limit = self.settings.consolidation.word_limits.of(key.scope)
        return found.get(key) or ConsolidatedMemory.empty(key, limit)

    async def replace_consolidated(
        self, key: ScopeKey, content: str, *, expected_version: int
    ) -> ConsolidatedMemory:
        """A person's rewrite of a blob, kept exactly (within the word limit), one version up.

        ``expected_version`` is the version the rewrite was based on (0 when there was no
        blob): a consolidation or another save since then is a ``StaleEditError`` that shows
        the newer text, so the notes a consolidation absorbed are never overwritten."""
        key = check_key(key)
        based_on = version_of(expected_version, least=0)
        current = await self.get_consolidated(key)
        what = f"the {key.as_text()} memory"
        unchanged(what, based_on, current)
        updated = replace_content(current, content, self.clock.now())
        if not await self.stores.buffers.replace_consolidated(updated, based_on):
            raise StaleEditError(what, based_on, await self.get_consolidated(key))
        return updated


def _fact_ids(agent_id: object, fact_id: object) -> tuple[AgentId, FactId]:
    return agent_id_of(agent_id), FactId(check_id(fact_id, "fact_id"))


def _reflection_ids(agent_id: object, reflection_id: object) -> tuple[AgentId, ReflectionId]:
    return agent_id_of(agent_id), ReflectionId(check_id(reflection_id, "reflection_id"))


P = ParamSpec("P")
R = TypeVar("R")


class HoldsRecords(Protocol):
    @property
    def records(self) -> Management: ...


class Offered(Generic[P, R]):
    """A ``Management`` method offered by a face that holds one as ``records`` (``Admin``):
    composition with the method's own signature and docstring, and no forwarding body."""

    def __init__(self, method: Callable[Concatenate[Management, P], R]) -> None:
        self._method = method
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, holder: None, owner: type) -> Offered[P, R]: ...

    @overload
    def __get__(self, holder: HoldsRecords, owner: type) -> Callable[P, R]: ...

    def __get__(self, holder: HoldsRecords | None, owner: type) -> Offered[P, R] | Callable[P, R]:
        if holder is None:
            return self
        return functools.partial(self._method, holder.records)
