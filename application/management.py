"""Management: what a memory UI does — read, edit, delete, inspect — as an API.

Every call is confined to one agent: an id of another agent's memory is "not found".
"""

from __future__ import annotations

from dataclasses import dataclass

from eden_memory.application.calls import embed
from eden_memory.application.reports import Usage
from eden_memory.application.spaces import require_space
from eden_memory.domain.consolidation import replace_content
from eden_memory.domain.errors import ConflictError, NotFoundError
from eden_memory.domain.ids import AgentId, FactId, ReflectionId, UserId
from eden_memory.domain.models import ConsolidatedMemory, Fact, FactRevision, FactStatus, Reflection
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.settings import MemorySettings
from eden_memory.domain.text import single_line
from eden_memory.ports.clock import Clock
from eden_memory.ports.embedder import Embedder
from eden_memory.ports.stores import FactQuery, MemoryStore


@dataclass
class Management:
    store: MemoryStore
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
    ) -> list[Fact]:
        user = UserId(user_id) if user_id is not None else None
        query = FactQuery(AgentId(agent_id), scope, user, status, limit, offset)
        return await self.store.list_facts(query)

    async def get_fact(self, agent_id: str, fact_id: str) -> Fact:
        found = await self.store.get_facts([FactId(fact_id)])
        if not found or found[0].agent_id != agent_id:
            raise NotFoundError(f"agent {agent_id!r} has no fact {fact_id!r}")
        return found[0]

    async def fact_history(self, agent_id: str, fact_id: str) -> list[FactRevision]:
        """Every content the fact has had, oldest first, the current one last."""
        fact = await self.get_fact(agent_id, fact_id)
        current = FactRevision(
            version=fact.version, content=fact.content, replaced_at=fact.updated_at
        )
        return [*fact.history, current]

    async def edit_fact(
        self, agent_id: str, fact_id: str, content: str, reason: str = "edited"
    ) -> Fact:
        """Change a fact's text (re-embedded); the old text stays in its history.

        The new vector is the embedder's, and the fact records its model: an embedder of
        another model than the store's is refused before it is called.
        """
        text = single_line(content, max_words=self.settings.facts.max_words, what="fact")
        fact = await self.get_fact(agent_id, fact_id)
        space = await require_space(self.store, self.embedder)
        [vector] = await embed(self.embedder, [text], Usage())
        revised = fact.revised(text, self.clock.now(), reason, space=space)
        return await self.store.update_fact(revised, vector, fact.version)

    async def delete_fact(self, agent_id: str, fact_id: str) -> None:
        """Remove a fact for good (a person's decision, unlike an LLM's retirement)."""
        await self.get_fact(agent_id, fact_id)
        await self.store.delete_facts([FactId(fact_id)])

    # Reflections -------------------------------------------------------------------

    async def list_reflections(
        self, agent_id: str, key: ScopeKey | None = None, include_absorbed: bool = False
    ) -> list[Reflection]:
        return await self.store.list_reflections(AgentId(agent_id), key, include_absorbed)

    async def _reflection(self, agent_id: str, reflection_id: str) -> Reflection:
        found = await self.store.get_reflection(ReflectionId(reflection_id))
        if found is None or found.agent_id != agent_id:
            raise NotFoundError(f"agent {agent_id!r} has no reflection {reflection_id!r}")
        return found

    async def edit_reflection(self, agent_id: str, reflection_id: str, content: str) -> Reflection:
        """Edit a buffered reflection; absorbed ones live on in their blob (edit that instead)."""
        text = single_line(
            content, max_words=self.settings.reflections.max_words, what="reflection"
        )
        current = await self._reflection(agent_id, reflection_id)
        if current.absorbed:
            raise ConflictError("this reflection is already absorbed; edit the consolidated memory")
        return await self.store.update_reflection(current.evolve(content=text))

    async def delete_reflection(self, agent_id: str, reflection_id: str) -> None:
        current = await self._reflection(agent_id, reflection_id)
        if current.absorbed:
            raise ConflictError("this reflection is already absorbed; edit the consolidated memory")
        await self.store.delete_reflections([current.id])

    # Consolidated blobs ------------------------------------------------------------

    async def get_consolidated(self, key: ScopeKey) -> ConsolidatedMemory:
        """The blob of a key (an empty one, version 0, if nothing was consolidated yet)."""
        found = await self.store.get_consolidated([key])
        limit = self.settings.consolidation.word_limits.of(key.scope)
        return found.get(key) or ConsolidatedMemory.empty(key, limit)

    async def replace_consolidated(self, key: ScopeKey, content: str) -> ConsolidatedMemory:
        """A person's rewrite of a blob, kept exactly (within the word limit), one version up."""
        current = await self.get_consolidated(key)
        updated = replace_content(current, content, self.clock.now())
        if not await self.store.replace_consolidated(updated, current.version):
            raise ConflictError("the memory changed meanwhile; read it again and retry")
        return updated
