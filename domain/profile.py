"""A session's profile: who speaks to which agent, and how the session's memory is formed.

It is the one identity value from the host's call inward: the service builds it from the
host's agent config and ids, the store keeps it with the session (so a scheduler can form a
cold session from the store alone), and each request's scopes are resolved from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.ids import AgentId, SessionId, UserId, check_id, check_id_list
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.scopes import ActiveScopes, AgentMemoryConfig, Scope
from eden_memory.domain.settings import MemorySettings
from eden_memory.domain.text import check_encodable


@dataclass(frozen=True)
class SessionProfile:
    """An agent (with its memory toggles, instructions and own settings), a session and its
    distinct users, and whether its reflections get the premium model (decided once, when
    built)."""

    agent_id: AgentId
    session_id: SessionId
    user_ids: tuple[UserId, ...] = ()
    user_memory_enabled: bool = True
    agent_memory_enabled: bool = True
    memory_instructions: str = ""
    premium: bool = False
    settings: AgentSettings = field(default_factory=AgentSettings)
    # The sole user's name, shown with their memory in the context; never stored (the host
    # passes it with each call: no store keeps a person's name it does not need).
    user_name: str | None = None

    def __post_init__(self) -> None:
        check_id(self.agent_id, "agent_id")
        check_id(self.session_id, "session_id")
        if self.user_name is not None:
            check_encodable(self.user_name, "user_name")
            object.__setattr__(self, "user_name", " ".join(self.user_name.split()) or None)
        users = check_id_list(self.user_ids, "user_ids", "user_id")
        object.__setattr__(self, "user_ids", tuple(UserId(u) for u in dict.fromkeys(users)))

    @classmethod
    def of(
        cls,
        agent: AgentMemoryConfig,
        session_id: str,
        user_ids: object = (),
        *,
        premium: bool = False,
        user_name: str | None = None,
    ) -> SessionProfile:
        """A session of ``agent`` (its toggles and instructions) with ``user_ids``."""
        users = check_id_list(user_ids, "user_ids", "user_id")
        return cls(
            AgentId(agent.agent_id),
            SessionId(check_id(session_id, "session_id")),
            tuple(UserId(u) for u in users),
            user_memory_enabled=agent.user_memory_enabled,
            agent_memory_enabled=agent.agent_memory_enabled,
            memory_instructions=agent.memory_instructions,
            premium=premium,
            settings=agent.settings,
            user_name=user_name,
        )

    @property
    def is_group(self) -> bool:
        return len(self.user_ids) > 1

    @property
    def sole_user(self) -> UserId | None:
        return self.user_ids[0] if len(self.user_ids) == 1 else None

    def scopes(self, memory_enabled: bool) -> ActiveScopes:
        """The scopes a request may use: session always (while memory is on), agent when
        enabled, user only when enabled and the session has a sole user."""
        scopes: set[Scope] = set()
        user_id: UserId | None = None
        if memory_enabled:
            scopes.add(Scope.SESSION)
            if self.agent_memory_enabled:
                scopes.add(Scope.AGENT)
            if self.user_memory_enabled and self.sole_user is not None:
                scopes.add(Scope.USER)
                user_id = self.sole_user
        return ActiveScopes(self.agent_id, self.session_id, user_id, frozenset(scopes))

    def effective(self, settings: MemorySettings) -> MemorySettings:
        """The agent's settings over the host's ``settings``: what every step of one
        operation on this session reads."""
        return self.settings.over(settings)

    def active(self, settings: MemorySettings) -> ActiveScopes:
        """The scopes under effective ``settings``, with each subsystem's switch."""
        scopes = self.scopes(settings.enabled)
        return replace(
            scopes,
            facts_enabled=settings.facts.enabled,
            reflections_enabled=settings.reflections.enabled,
        )

    @property
    def reflection_role(self) -> ModelRole:
        return ModelRole.REFLECTION_PREMIUM if self.premium else ModelRole.REFLECTION_FREE
