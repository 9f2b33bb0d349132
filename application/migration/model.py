"""What a migration plans, counts and reports.

Counts are kept per agent and per kind of target record, each as source / written /
already present / skipped, so ``source == written + present + skipped`` always holds and a
reader can see where every v1 item went.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from typing import Any

from eden_memory.domain.ids import AgentId
from eden_memory.domain.models import ConsolidatedMemory, Fact, Reflection
from eden_memory.domain.scopes import ScopeKey

NO_AGENT = "(no agent)"


class Kind(StrEnum):
    """One kind of migrated item; the names say what it becomes in eden-memory."""

    USER_BLOB = "user_blob"  # memory_user.content
    USER_REFLECTION = "user_reflection"  # unabsorbed directives
    AGENT_SHARD = "agent_shard"  # a shard, one titled section of the agent's blob
    AGENT_REFLECTION = "agent_reflection"  # unabsorbed suggestions
    AGENT_FACT = "agent_fact"  # shard facts
    SESSION_REFLECTION = "session_reflection"  # episodes of active sessions
    INSTRUCTIONS = "memory_instructions"  # shard extraction prompts
    OTHER = "other"  # v1 records that map to nothing (absorbed, evicted, unknown type)


@dataclass(frozen=True)
class MigrationOptions:
    agent_id: str | None = None
    include_paused_shards: bool = False
    active_session_episodes: bool = False
    # A session is "still active" when its newest episode is at most this old.
    active_within: timedelta = timedelta(hours=24)
    # v1 showed the 8 most recent episodes of a session; older ones are not migrated.
    episodes_per_session: int = 8
    fact_batch_size: int = 64
    dry_run: bool = False

    def fingerprint_parts(self) -> dict[str, Any]:
        """What makes two runs "the same job", so a crashed run is resumed, not restarted."""
        return {
            "agent_id": self.agent_id,
            "include_paused_shards": self.include_paused_shards,
            "active_session_episodes": self.active_session_episodes,
            "active_within_s": self.active_within.total_seconds(),
            "episodes_per_session": self.episodes_per_session,
        }


@dataclass(frozen=True)
class Issue:
    """One v1 document (or reference) that was not migrated as is, and why."""

    agent_id: str
    kind: Kind
    collection: str
    source_id: str | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "kind": self.kind.value,
            "collection": self.collection,
            "source_id": self.source_id,
            "reason": self.reason,
        }


@dataclass
class Tally:
    source: int = 0
    written: int = 0
    present: int = 0
    skipped: int = 0

    def add(self, other: Tally) -> None:
        self.source += other.source
        self.written += other.written
        self.present += other.present
        self.skipped += other.skipped

    def as_dict(self) -> dict[str, int]:
        return {
            "source": self.source,
            "written": self.written,
            "present": self.present,
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class PlannedFact:
    fact: Fact
    v1_id: str
    shard: str
    related_users: tuple[str, ...]


@dataclass(frozen=True)
class PlannedBlob:
    memory: ConsolidatedMemory
    kind: Kind
    # The v1 items folded into this blob (one user memory, or the merged shards).
    sources: tuple[str, ...]

    @property
    def key(self) -> ScopeKey:
        return self.memory.key


@dataclass(frozen=True)
class PlannedReflection:
    reflection: Reflection
    kind: Kind
    v1_id: str


@dataclass
class AgentPlan:
    """Everything one agent's v1 memory becomes, before anything is written."""

    agent_id: str
    blobs: list[PlannedBlob] = field(default_factory=list)
    reflections: list[PlannedReflection] = field(default_factory=list)
    facts: list[PlannedFact] = field(default_factory=list)
    instructions: str = ""
    issues: list[Issue] = field(default_factory=list)
    source_counts: dict[Kind, int] = field(default_factory=lambda: defaultdict(int))
    skipped_counts: dict[Kind, int] = field(default_factory=lambda: defaultdict(int))

    @property
    def fact_agent(self) -> AgentId:
        return AgentId(self.agent_id)

    def skip(self, kind: Kind, collection: str, v1_id: str | None, reason: str) -> None:
        """Count one v1 item of ``kind`` as seen but not migrated, with its reason."""
        self.source_counts[kind] += 1
        self.skipped_counts[kind] += 1
        self.issues.append(Issue(self.agent_id, kind, collection, v1_id, reason))

    def note(self, kind: Kind, collection: str, v1_id: str | None, reason: str) -> None:
        """Report something about an item that *is* migrated (e.g. over a word limit)."""
        self.issues.append(Issue(self.agent_id, kind, collection, v1_id, f"note: {reason}"))


@dataclass
class MigrationReport:
    run_id: str | None
    dry_run: bool
    resumed: bool = False
    tallies: dict[str, dict[Kind, Tally]] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)
    # agent id -> memory instructions (from its shards' extraction prompts), for the host.
    agent_profiles: dict[str, str] = field(default_factory=dict)
    # target fact id -> provenance the Fact model has no field for.
    fact_provenance: dict[str, dict[str, Any]] = field(default_factory=dict)
    # One line per record written (or, in a dry run, that would be written).
    writes: list[str] = field(default_factory=list)

    def tally(self, agent_id: str, kind: Kind) -> Tally:
        return self.tallies.setdefault(agent_id, {}).setdefault(kind, Tally())

    def totals(self) -> dict[Kind, Tally]:
        out: dict[Kind, Tally] = {}
        for kinds in self.tallies.values():
            for kind, tally in kinds.items():
                out.setdefault(kind, Tally()).add(tally)
        return out

    def balanced(self) -> bool:
        """Every source item is accounted for: written, already present or skipped."""
        return all(
            t.source == t.written + t.present + t.skipped
            for kinds in self.tallies.values()
            for t in kinds.values()
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "dry_run": self.dry_run,
            "resumed": self.resumed,
            "totals": {k.value: t.as_dict() for k, t in sorted(self.totals().items())},
            "per_agent": {
                agent: {k.value: t.as_dict() for k, t in sorted(kinds.items())}
                for agent, kinds in sorted(self.tallies.items())
            },
            "issues": [i.as_dict() for i in self.issues],
            "agent_profiles": dict(sorted(self.agent_profiles.items())),
            "fact_provenance": self.fact_provenance,
            "writes": self.writes,
        }
