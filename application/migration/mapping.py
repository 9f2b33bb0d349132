"""v1 documents to eden-memory records: pure functions, no I/O.

``plan_agent`` turns one agent's v1 documents into an ``AgentPlan``: the blobs,
reflections and facts to write, the agent's memory instructions, and an issue for every
v1 item that does not become a record. Every v1 item is counted exactly once, so the
report can show that nothing was dropped silently.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from eden_memory.application.migration.model import (
    AgentPlan,
    Kind,
    MigrationOptions,
)
from eden_memory.application.migration.records import RecordPlanner
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.migration.values import (
    created_time,
    id_list,
    source_id,
    text,
    updated_time,
    valid_id,
)
from eden_memory.domain.scopes import ScopeKey
from eden_memory.domain.settings import ScopeNumbers
from eden_memory.ports.migration import AGENTS, SESSIONS, USERS, V1Doc

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
KNOWN_TYPES = frozenset({"episode", "directive", "fact", "suggestion"})
# What a memory_sessions record of each type counts as when nothing references it.
_UNREFERENCED = {
    "directive": (Kind.USER_REFLECTION, "absorbed into the user's consolidated memory in v1"),
    "suggestion": (Kind.AGENT_REFLECTION, "absorbed into the shard's consolidated memory in v1"),
    "fact": (Kind.AGENT_FACT, "not in any shard's fact list (evicted by v1's FIFO)"),
}


def plan_agent(
    agent_id: str,
    users: Sequence[V1Doc],
    shards: Sequence[V1Doc],
    memories: Mapping[str, V1Doc],
    options: MigrationOptions,
    now: datetime,
    space: EmbeddingSpace,
    word_limits: ScopeNumbers,
) -> AgentPlan:
    """One agent's v1 memory as eden-memory records (see docs/migration.md for the mapping)."""
    planner = RecordPlanner(agent_id, memories, options, now, space, word_limits)
    _plan_users(planner, users)
    _plan_shards(planner, shards)
    _plan_episodes(planner)
    _plan_leftovers(planner)
    return planner.plan


def _plan_users(p: RecordPlanner, users: Sequence[V1Doc]) -> None:
    seen: set[str] = set()
    for doc in users:
        v1_id = source_id(doc.get("_id"))
        user_id = valid_id(doc.get("user_id"))
        directives = id_list(doc.get("unabsorbed_memory_ids"))
        problem = None
        if user_id is None:
            problem = "missing or unusable user_id"
        elif user_id in seen:
            problem = f"a second memory_user document for user {user_id}"
        if problem is not None:
            p.plan.skip(Kind.USER_BLOB, USERS, v1_id, problem)
            for ref in directives:
                p.claimed.add(ref)
                p.plan.skip(Kind.USER_REFLECTION, SESSIONS, ref, f"its user memory: {problem}")
            continue
        assert user_id is not None
        seen.add(user_id)
        key = ScopeKey.user(agent_id=p.agent_id, user_id=user_id)
        content = text(doc.get("content"))
        if content is None or not content.strip():
            p.plan.skip(Kind.USER_BLOB, USERS, v1_id, "empty or missing content")
        else:
            p.blob(
                Kind.USER_BLOB,
                key,
                content,
                p.limits.user,
                [v1_id or user_id],
                updated_time(doc),
                USERS,
            )
        for ref in directives:
            found = p.take(Kind.USER_REFLECTION, ref, "directive", f"user memory of {user_id}")
            if found is not None:
                p.reflection(Kind.USER_REFLECTION, key, ref, found)


def _shard_order(doc: V1Doc) -> tuple[datetime, str]:
    return (created_time(doc) or _EPOCH, source_id(doc.get("_id")) or "")


def _plan_shards(p: RecordPlanner, shards: Sequence[V1Doc]) -> None:
    key = ScopeKey.agent(p.agent_id)
    sections: list[tuple[str, str]] = []
    section_ids: list[str] = []
    prompts: list[tuple[str, str]] = []
    newest: datetime | None = None
    for doc in sorted(shards, key=_shard_order):
        v1_id = source_id(doc.get("_id")) or "?"
        name = text(doc.get("shard_name"))
        if not name or not name.strip():
            name = f"shard {v1_id}"
            p.plan.note(Kind.AGENT_SHARD, AGENTS, v1_id, f"no shard_name: titled {name!r}")
        name = " ".join(name.split())
        active = doc.get("is_active", True) is not False
        suggestions = id_list(doc.get("unabsorbed_memory_ids"))
        facts = id_list(doc.get("facts"))
        prompt = text(doc.get("extraction_prompt")) or ""
        if not active and not p.options.include_paused_shards:
            reason = "paused shard, not merged (use --include-paused-shards)"
            p.plan.skip(Kind.AGENT_SHARD, AGENTS, v1_id, reason)
            if prompt.strip():
                p.plan.skip(Kind.INSTRUCTIONS, AGENTS, v1_id, reason)
            for ref in suggestions:
                p.claimed.add(ref)
                p.plan.skip(Kind.AGENT_REFLECTION, SESSIONS, ref, reason)
            for ref in facts:
                p.claimed.add(ref)
                p.plan.skip(Kind.AGENT_FACT, SESSIONS, ref, reason)
            continue
        title = name if active else f"{name} (paused in v1)"
        content = text(doc.get("content"))
        if content is None or not content.strip():
            p.plan.skip(Kind.AGENT_SHARD, AGENTS, v1_id, "no consolidated content: no section")
        else:
            sections.append((title, content.strip()))
            section_ids.append(v1_id)
            stamp = updated_time(doc)
            if stamp is not None and (newest is None or stamp > newest):
                newest = stamp
        if prompt.strip():
            prompts.append((title, prompt.strip()))
            p.plan.source_counts[Kind.INSTRUCTIONS] += 1
        for ref in suggestions:
            found = p.take(Kind.AGENT_REFLECTION, ref, "suggestion", f"shard {name!r}")
            if found is not None:
                p.reflection(Kind.AGENT_REFLECTION, key, ref, found)
        for ref in facts:
            found = p.take(Kind.AGENT_FACT, ref, "fact", f"shard {name!r}")
            if found is not None:
                p.fact(ref, found, name)
    if sections:
        merged = "\n\n".join(f"## {title}\n{body}" for title, body in sections)
        p.blob(Kind.AGENT_SHARD, key, merged, p.limits.agent, section_ids, newest, AGENTS)
    if len(prompts) == 1:
        p.plan.instructions = prompts[0][1]
    elif prompts:
        p.plan.instructions = "\n\n".join(f"## {title}\n{body}" for title, body in prompts)


def _plan_episodes(p: RecordPlanner) -> None:
    by_session: dict[str, list[tuple[datetime, str, V1Doc]]] = defaultdict(list)
    for v1_id, doc in sorted(p.memories.items()):
        if doc.get("memory_type") != "episode" or v1_id in p.claimed:
            continue
        p.claimed.add(v1_id)
        if not p.options.active_session_episodes:
            p.plan.skip(
                Kind.SESSION_REFLECTION,
                SESSIONS,
                v1_id,
                "episode not migrated (use --active-session-episodes)",
            )
            continue
        session_id = valid_id(doc.get("source_session_id"))
        if session_id is None:
            p.plan.skip(Kind.SESSION_REFLECTION, SESSIONS, v1_id, "episode without a session")
            continue
        stamp = created_time(doc) or p.now
        by_session[session_id].append((stamp, v1_id, doc))
    cutoff = p.now - p.options.active_within
    for session_id, episodes in sorted(by_session.items()):
        episodes.sort(key=lambda e: (e[0], e[1]), reverse=True)
        active = episodes[0][0] >= cutoff
        key = ScopeKey.session(agent_id=p.agent_id, session_id=session_id)
        for rank, (_, v1_id, doc) in enumerate(episodes):
            if not active:
                reason = "episode of a session that is no longer active"
                p.plan.skip(Kind.SESSION_REFLECTION, SESSIONS, v1_id, reason)
            elif rank >= p.options.episodes_per_session:
                reason = f"older than the session's {p.options.episodes_per_session} newest"
                p.plan.skip(Kind.SESSION_REFLECTION, SESSIONS, v1_id, reason)
            else:
                p.reflection(Kind.SESSION_REFLECTION, key, v1_id, doc)


def _plan_leftovers(p: RecordPlanner) -> None:
    for v1_id, doc in sorted(p.memories.items()):
        if v1_id in p.claimed:
            continue
        memory_type = doc.get("memory_type")
        if memory_type in _UNREFERENCED:
            kind, reason = _UNREFERENCED[str(memory_type)]
            p.plan.skip(kind, SESSIONS, v1_id, reason)
        elif memory_type in KNOWN_TYPES:
            p.plan.skip(Kind.OTHER, SESSIONS, v1_id, f"{memory_type} not migrated")
        else:
            p.plan.skip(Kind.OTHER, SESSIONS, v1_id, f"unknown memory type {memory_type!r}")
