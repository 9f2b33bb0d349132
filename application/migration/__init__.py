"""Migration from the first memory system (v1 collections ``memory_sessions``,
``memory_user``, ``memory_agent``) into eden-memory. See docs/migration.md."""

from eden_memory.application.migration.mapping import plan_agent
from eden_memory.application.migration.model import (
    AgentPlan,
    Issue,
    Kind,
    MigrationOptions,
    MigrationReport,
    Tally,
)
from eden_memory.application.migration.profiles import agent_profiles
from eden_memory.application.migration.rollback import RollbackReport, rollback_v1
from eden_memory.application.migration.run import migrate_v1
from eden_memory.ports.migration import RunJournal, V1Source

__all__ = [
    "AgentPlan",
    "Issue",
    "Kind",
    "MigrationOptions",
    "MigrationReport",
    "RollbackReport",
    "RunJournal",
    "Tally",
    "V1Source",
    "agent_profiles",
    "migrate_v1",
    "plan_agent",
    "rollback_v1",
]
