"""Scopes, scope keys, an agent's memory config, a request's scopes, and who may see a fact.

These are the isolation rules of the library. Every store and every use case asks them;
none re-implements them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.ids import AgentId, SessionId, UserId, check_id
from eden_memory.domain.text import check_encodable


class Scope(StrEnum):
    """Where a memory applies. Broadest last, so ``sorted`` reads narrow to broad."""

    SESSION = "session"
    USER = "user"
    AGENT = "agent"


FACT_SCOPES: frozenset[Scope] = frozenset({Scope.USER, Scope.AGENT})
# The order reflections are extracted and context is rendered: broadest first.
HIERARCHY: tuple[Scope, ...] = (Scope.AGENT, Scope.USER, Scope.SESSION)


@dataclass(frozen=True, order=True)
class ScopeKey:
    """The owner of a scope: an agent, one user with that agent, or one session of that agent."""

    scope: Scope
    agent_id: AgentId
    user_id: UserId | None = None
    session_id: SessionId | None = None

    def __post_init__(self) -> None:
        check_id(self.agent_id, "agent_id")
        expects_user = self.scope is Scope.USER
        expects_session = self.scope is Scope.SESSION
        if expects_user != (self.user_id is not None):
            raise InvalidInputError(f"a {self.scope} scope key {_needs('user_id', expects_user)}")
        if expects_session != (self.session_id is not None):
            raise InvalidInputError(
                f"a {self.scope} scope key {_needs('session_id', expects_session)}"
            )
        if self.user_id is not None:
            check_id(self.user_id, "user_id")
        if self.session_id is not None:
            check_id(self.session_id, "session_id")

    @classmethod
    def agent(cls, agent_id: str) -> ScopeKey:
        return cls(Scope.AGENT, AgentId(agent_id))

    @classmethod
    def user(cls, agent_id: str, user_id: str) -> ScopeKey:
        return cls(Scope.USER, AgentId(agent_id), user_id=UserId(user_id))

    @classmethod
    def session(cls, agent_id: str, session_id: str) -> ScopeKey:
        return cls(Scope.SESSION, AgentId(agent_id), session_id=SessionId(session_id))

    def as_text(self) -> str:
        """A stable string form, for cache keys and store keys."""
        owner = self.user_id or self.session_id or ""
        return f"{self.scope.value}:{_key_part(self.agent_id)}:{_key_part(owner)}"


def check_key(value: object, what: str = "key") -> ScopeKey:
    """A host's scope key; a dict or a string in its place is refused, not looked up."""
    if not isinstance(value, ScopeKey):
        raise InvalidInputError(
            f"{what} must be a ScopeKey (ScopeKey.agent, .user or .session), "
            f"got {type(value).__name__}"
        )
    return value


def _key_part(value: str) -> str:
    # Ids may contain ":" but never "%": escaping keeps ("a:b", "c") and ("a", "b:c") apart.
    return value.replace(":", "%3A")


def _needs(name: str, expected: bool) -> str:
    return f"needs a {name}" if expected else f"takes no {name}"


@dataclass(frozen=True)
class AgentMemoryConfig:
    """What an agent has switched on, what it should pay attention to, and the numbers it
    sets for itself (``settings``: thresholds, limits, switches over the host's globals)."""

    agent_id: str
    user_memory_enabled: bool = True
    agent_memory_enabled: bool = True
    memory_instructions: str = ""
    settings: AgentSettings = field(default_factory=AgentSettings)

    def __post_init__(self) -> None:
        check_id(self.agent_id, "agent_id")
        check_encodable(self.memory_instructions, "memory_instructions")
        if not isinstance(self.settings, AgentSettings):
            raise InvalidInputError(
                "settings must be an AgentSettings (AgentSettings.of({...}) takes a mapping), "
                f"got {type(self.settings).__name__}"
            )


@dataclass(frozen=True)
class ActiveScopes:
    """The scopes one request may form, show and search, with the keys they resolve to."""

    agent_id: AgentId
    session_id: SessionId
    user_id: UserId | None
    scopes: frozenset[Scope]
    # The two subsystems, each switchable on its own (seeds 000/001 §1.1, §8.1).
    facts_enabled: bool = True
    reflections_enabled: bool = True

    @property
    def fact_scopes(self) -> frozenset[Scope]:
        """The scopes whose facts are formed, shown and searched: none with facts off."""
        return self.scopes & FACT_SCOPES if self.facts_enabled else frozenset()

    @property
    def search_offered(self) -> bool:
        """``search_facts`` is offered only when user or agent memory is active."""
        return bool(self.fact_scopes)

    def key(self, scope: Scope) -> ScopeKey:
        if scope not in self.scopes:
            raise InvalidInputError(f"scope {scope} is not active for this request")
        if scope is Scope.AGENT:
            return ScopeKey.agent(self.agent_id)
        if scope is Scope.USER:
            assert self.user_id is not None  # guaranteed by SessionProfile.scopes
            return ScopeKey.user(self.agent_id, self.user_id)
        return ScopeKey.session(self.agent_id, self.session_id)

    def keys(self) -> tuple[ScopeKey, ...]:
        """Active keys, broadest first (the order of extraction and of the context)."""
        return tuple(self.key(scope) for scope in HIERARCHY if scope in self.scopes)

    def reflection_keys(self) -> tuple[ScopeKey, ...]:
        """The keys whose reflections are formed, consolidated and shown: none with
        reflections off."""
        return self.keys() if self.reflections_enabled else ()

    @property
    def visibility(self) -> FactVisibility:
        return FactVisibility(self.agent_id, self.user_id, self.fact_scopes)


@dataclass(frozen=True)
class FactVisibility:
    """Who is looking: an agent, maybe one user, and which fact scopes they may see."""

    agent_id: AgentId
    user_id: UserId | None
    scopes: frozenset[Scope]

    def __post_init__(self) -> None:
        if Scope.SESSION in self.scopes:
            raise InvalidInputError("facts have no session scope")
        if Scope.USER in self.scopes and self.user_id is None:
            raise InvalidInputError("user facts are visible only to a known user")

    def admits(self, agent_id: str, scope: Scope, user_id: str | None) -> bool:
        """A fact is visible iff it is this agent's, and agent-scoped or this user's."""
        if agent_id != self.agent_id or scope not in self.scopes:
            return False
        if scope is Scope.AGENT:
            return True
        return scope is Scope.USER and user_id is not None and user_id == self.user_id

    @property
    def is_empty(self) -> bool:
        return not self.scopes
