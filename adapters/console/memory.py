"""What the console may do with the memory: the one module that knows the service's names.

Every call names its agent and is refused ("not found") for an agent the operator did not
open the console on, so no URL reaches another agent's memory. Ids of records of another
agent are refused by the management API itself.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from eden_memory.application.administration.admin import Admin
from eden_memory.application.administration.erasure import Erasure
from eden_memory.application.administration.inspection import ConsolidationStatus, ScopeStats
from eden_memory.application.administration.owners import OwnerPage
from eden_memory.application.administration.provenance import Contributions
from eden_memory.application.context.assembly import MemoryContext
from eden_memory.application.conversation import Conversation
from eden_memory.application.search import SearchResponse
from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import NotFoundError
from eden_memory.domain.ids import (
    AgentId,
    FactId,
    check_id,
    session_id_of,
    user_id_of,
)
from eden_memory.domain.models import (
    ConsolidatedMemory,
    Fact,
    FactRevision,
    FactStatus,
    Reflection,
    ReflectionRevision,
    SessionState,
)
from eden_memory.domain.scopes import AgentMemoryConfig, Scope, ScopeKey
from eden_memory.ports.stores import ListingPosition, Stores

PREVIEW_SESSION = "console-preview"  # the session a preview names when the operator names none


@dataclass(frozen=True)
class Shown:
    """A context as a prompt would get it, and what its recent facts leave out."""

    context: MemoryContext
    note: str | None  # ``FactWindow.note``: None when the recent facts leave none out


class ConsoleMemory:
    """The management API, confined to the agents the console was opened on."""

    def __init__(self, service: MemoryService, agents: Sequence[str]) -> None:
        self._service = service
        self.agents = tuple(check_id(a, "agent_id") for a in agents)

    # The service's names, in one place: administration is ``service.admin``.
    @property
    def _admin(self) -> Admin:
        return self._service.admin

    @property
    def _stores(self) -> Stores:
        return self._service.admin.stores

    def agent(self, agent_id: str) -> AgentId:
        """The agent, if the console was opened on it; "not found" otherwise."""
        if agent_id not in self.agents:
            raise NotFoundError(f"this console was not opened on agent {agent_id!r}")
        return AgentId(agent_id)

    def now(self) -> datetime:
        return self._service.clock.now()

    def word_limit(self, scope: Scope) -> int:
        return self._service.settings.consolidation.word_limits.of(scope)

    # Facts -------------------------------------------------------------------------

    async def facts(
        self,
        agent_id: str,
        *,
        user_id: str | None,
        scope: Scope | None,
        status: FactStatus | None,
        after: ListingPosition | None,
        limit: int,
    ) -> list[Fact]:
        return await self._admin.list_facts(
            self.agent(agent_id),
            user_id=user_id,
            scope=scope,
            status=status,
            limit=limit,
            after=after,
        )

    async def fact(self, agent_id: str, fact_id: str) -> Fact:
        return await self._admin.get_fact(self.agent(agent_id), fact_id)

    async def facts_by_id(self, agent_id: str, ids: Sequence[str]) -> list[Fact]:
        """The facts with these ids that belong to the agent (a superseding fact, say)."""
        agent = self.agent(agent_id)
        found = await self._stores.facts.get_facts([FactId(check_id(i, "fact_id")) for i in ids])
        return [f for f in found if f.agent_id == agent]

    async def history(self, agent_id: str, fact_id: str) -> list[FactRevision]:
        return await self._admin.fact_history(self.agent(agent_id), fact_id)

    async def edit_fact(self, agent_id: str, fact_id: str, content: str, version: int) -> Fact:
        """The new text is re-embedded; the old one stays in the fact's history. ``version``
        is the one the page showed: a save on a fact that moved on is a ``StaleEditError``."""
        return await self._admin.edit_fact(
            self.agent(agent_id), fact_id, content, "console edit", expected_version=version
        )

    async def delete_fact(self, agent_id: str, fact_id: str) -> None:
        await self._admin.delete_fact(self.agent(agent_id), fact_id)

    # Reflections and blobs ---------------------------------------------------------

    async def buffered(self, key: ScopeKey) -> list[Reflection]:
        """The reflections awaiting consolidation in one scope, oldest first."""
        return await self._admin.list_reflections(self.agent(key.agent_id), key)

    async def reflection(self, agent_id: str, reflection_id: str) -> Reflection:
        """One reflection of the agent, buffered or absorbed."""
        return await self._admin.get_reflection(self.agent(agent_id), reflection_id)

    async def reflection_history(
        self, agent_id: str, reflection_id: str
    ) -> list[ReflectionRevision]:
        return await self._admin.reflection_history(self.agent(agent_id), reflection_id)

    async def edit_reflection(
        self, agent_id: str, reflection_id: str, content: str, version: int
    ) -> None:
        await self._admin.edit_reflection(
            self.agent(agent_id), reflection_id, content, "console edit", expected_version=version
        )

    async def delete_reflection(self, agent_id: str, reflection_id: str) -> None:
        await self._admin.delete_reflection(self.agent(agent_id), reflection_id)

    async def blob(self, key: ScopeKey) -> ConsolidatedMemory:
        self.agent(key.agent_id)
        return await self._admin.get_consolidated(key)

    async def replace_blob(self, key: ScopeKey, content: str, version: int) -> ConsolidatedMemory:
        self.agent(key.agent_id)
        return await self._admin.replace_consolidated(key, content, expected_version=version)

    # Inspection --------------------------------------------------------------------

    async def stats(
        self, agent_id: str, user_id: str | None, session_id: str | None
    ) -> list[ScopeStats]:
        return await self._admin.stats(self.agent(agent_id), user_id, session_id)

    async def status(
        self, agent_id: str, user_id: str | None, session_id: str | None
    ) -> list[ConsolidationStatus]:
        return await self._admin.consolidation_status(self.agent(agent_id), user_id, session_id)

    async def users(self, agent_id: str, after: str | None, limit: int) -> OwnerPage:
        """A page of the users with memory of their own: facts, a blob or notes."""
        return await self._admin.users_with_memory(self.agent(agent_id), after, limit)

    async def sessions(self, agent_id: str, after: str | None, limit: int) -> OwnerPage:
        """A page of the sessions with notes of their own: a blob or reflections."""
        return await self._admin.sessions_with_memory(self.agent(agent_id), after, limit)

    async def sessions_of(self, agent_id: str, user_id: str) -> list[SessionState]:
        agent = self.agent(agent_id)
        user = user_id_of(user_id)
        return await self._stores.session_records.sessions_of_user(agent, user)

    async def session(self, agent_id: str, session_id: str) -> SessionState | None:
        agent = self.agent(agent_id)
        return await self._stores.sessions.get_session(agent, session_id_of(session_id))

    # What the agent sees -----------------------------------------------------------

    async def _conversation(
        self, agent_id: str, user_id: str | None, session_id: str | None
    ) -> Conversation:
        """The stored session's profile (its toggles and users), seen as ``user_id`` if
        given; without a stored session, the agent's defaults."""
        agent = self.agent(agent_id)
        session = await self.session(agent, session_id) if session_id else None
        if session is None:
            users = [user_id] if user_id else []
            return self._service.conversation(
                AgentMemoryConfig(agent), session_id or PREVIEW_SESSION, users
            )
        return (
            replace(session.profile, user_ids=(user_id_of(user_id),))
            if user_id
            else session.profile
        )

    async def context(self, agent_id: str, user_id: str | None, session_id: str | None) -> Shown:
        """Built afresh from the store: exactly what a prompt of that session would get, and
        what its recent facts leave out of the facts it may see."""
        conversation = await self._conversation(agent_id, user_id, session_id)
        built = await self._service.get_context(conversation, refresh=True)
        window = await self._admin.fact_window(conversation, built.facts)
        return Shown(built, window.note())

    async def search(
        self, agent_id: str, user_id: str | None, session_id: str | None, query: str, top_k: int
    ) -> SearchResponse:
        """``search_facts`` as the agent's tool runs it, with every retriever's scores."""
        conversation = await self._conversation(agent_id, user_id, session_id)
        return await self._service.search_facts(conversation, [query], top_k, debug=True)

    # A user's memory as a whole ----------------------------------------------------

    async def contributions(self, agent_id: str, user_id: str) -> Contributions:
        return await self._admin.contributions(self.agent(agent_id), check_id(user_id, "user_id"))

    async def erase_user(self, agent_id: str, user_id: str) -> Erasure:
        return await self._admin.erase_user(self.agent(agent_id), check_id(user_id, "user_id"))

    def export(self, agent_id: str) -> AsyncIterator[str]:
        return self._admin.export(self.agent(agent_id))
