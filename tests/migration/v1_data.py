"""v1 fixtures, shaped like the first system's documents (seed 003's models, seed 004's
behaviour): ``memory_user``, ``memory_agent`` (shards) and ``memory_sessions`` records.

Ids come in both forms on purpose (ObjectId and string), and a few documents are broken
the ways old data breaks: missing fields, unknown types, empty or oversize content,
dangling references.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId

NOW = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)


def oid(n: int) -> ObjectId:
    return ObjectId(f"{n:024x}")


# Agent A: its id is an ObjectId in some documents and a string in others.
AGENT_A = oid(0xA1)
AGENT_A_ID = str(AGENT_A)
AGENT_B_ID = "agent-b"
USER_1 = oid(0x11)
USER_1_ID = str(USER_1)
SESSION_LIVE = "sess-live"
SESSION_OLD = "sess-old"


def _naive(days_ago: float) -> datetime:
    # pymongo hands back naive UTC datetimes.
    return (NOW - timedelta(days=days_ago)).replace(tzinfo=None)


def memory(
    n: int,
    memory_type: Any,
    content: Any,
    *,
    agent: Any = AGENT_A,
    days_ago: float = 10,
    session: Any = "s-100",
    users: list[Any] | None = None,
    shard: Any = None,
    as_string: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "_id": str(oid(n)) if as_string else oid(n),
        "agent_id": agent,
        "source_session_id": session,
        "memory_type": memory_type,
        "content": content,
        "source_message_ids": [oid(n + 0x1000), f"m-{n}"],
        "related_users": users if users is not None else [USER_1],
        "shard_id": shard,
        "agent_owner": None,
        "createdAt": _naive(days_ago),
        **extra,
    }
    return {k: v for k, v in doc.items() if v is not ...}


SHARD_ALPHA = oid(0x501)
SHARD_THEMES = oid(0x502)
SHARD_PAUSED = oid(0x503)


def v1_collections() -> dict[str, list[dict[str, Any]]]:
    sessions = [
        # user directives
        memory(1, "directive", "Always answer in French.", days_ago=3),
        memory(2, "directive", "Never use emojis.", days_ago=2, as_string=True),
        memory(3, "directive", "Call me Sam.", days_ago=1, agent=AGENT_A_ID),
        memory(4, "directive", "Old directive, already absorbed.", days_ago=30),
        memory(5, "directive", "Directive saved without its agent.", agent=...),
        # shard suggestions
        memory(10, "suggestion", "Propose a cheaper venue.", shard=SHARD_ALPHA),
        memory(11, "suggestion", "Try a neon palette.", shard=SHARD_THEMES),
        memory(12, "suggestion", "Revisit old idea.", shard=SHARD_PAUSED),
        # shard facts
        memory(20, "fact", "The Alpha budget is 5000 euros.", days_ago=40, shard=SHARD_ALPHA),
        memory(21, "fact", "The Alpha deadline is March 3.", days_ago=20, shard=SHARD_ALPHA),
        memory(22, "fact", "the alpha budget is 5000 euros", days_ago=5, shard=SHARD_ALPHA),
        memory(
            23,
            "fact",
            "Neon themes performed best.",
            days_ago=2,
            shard=SHARD_THEMES,
            as_string=True,
            users=[USER_1, "user-2"],
        ),
        memory(24, "fact", "Paused shard fact.", shard=SHARD_PAUSED),
        memory(25, "fact", "An evicted fact.", days_ago=90, shard=SHARD_ALPHA),
        # bad facts referenced by a shard
        memory(26, "fact", "   ", shard=SHARD_THEMES),
        memory(27, "fact", "x" * 3000, shard=SHARD_THEMES),
        {"_id": oid(28), "agent_id": AGENT_A, "memory_type": "fact"},  # no content, no time
        # episodes
        memory(40, "episode", "We planned the launch.", session=SESSION_LIVE, days_ago=0.1),
        memory(41, "episode", "We picked colours.", session=SESSION_LIVE, days_ago=0.05),
        memory(42, "episode", "Long ago chat.", session=SESSION_OLD, days_ago=30),
        # unknown type, and a record with no agent at all
        memory(50, "thought", "Unknown kind of memory."),
        {"_id": oid(51), "memory_type": "fact", "content": "Nobody's fact."},
        # agent B
        memory(60, "fact", "B knows the office is in Lyon.", agent=AGENT_B_ID, days_ago=7),
        memory(61, "directive", "Directive of a user with no id.", agent=AGENT_B_ID),
    ]
    users = [
        {
            "_id": oid(0x301),
            "agent_id": AGENT_A,
            "user_id": USER_1,
            "content": "Sam prefers concise answers.\nWorks in marketing.",
            "unabsorbed_memory_ids": [oid(1), str(oid(2))],
            "fully_formed_memory": "(derived; not migrated)",
            "last_updated_at": _naive(4),
        },
        {
            "_id": oid(0x302),
            "agent_id": AGENT_A_ID,
            "user_id": "user-2",
            "content": "",
            "unabsorbed_memory_ids": [oid(3), oid(5)],
            "last_updated_at": _naive(1),
        },
        {
            "_id": oid(0x303),
            "agent_id": AGENT_B_ID,
            "content": "User memory without a user.",
            "unabsorbed_memory_ids": [oid(61)],
        },
    ]
    shards = [
        {
            "_id": SHARD_ALPHA,
            "agent_id": AGENT_A,
            "shard_name": "Project Alpha",
            "extraction_prompt": "Remember budgets and deadlines of Project Alpha.",
            "is_active": True,
            "content": "Alpha launches in spring.",
            "unabsorbed_memory_ids": [oid(10)],
            "facts": [oid(20), oid(21), str(oid(22)), oid(0xDEAD)],
            "createdAt": _naive(100),
            "last_updated_at": _naive(6),
            "max_facts_per_shard": 50,
        },
        {
            "_id": SHARD_THEMES,
            "agent_id": AGENT_A_ID,
            "shard_name": "Themes",
            "extraction_prompt": "Track theme ideas.",
            "is_active": True,
            "content": "The community likes bold colours.",
            "unabsorbed_memory_ids": [oid(11)],
            "facts": [str(oid(23)), oid(26), oid(27), oid(28)],
            "createdAt": _naive(50),
            "last_updated_at": _naive(3),
        },
        {
            "_id": SHARD_PAUSED,
            "agent_id": AGENT_A,
            "shard_name": "Old project",
            "extraction_prompt": "Old prompt.",
            "is_active": False,
            "content": "Old project notes.",
            "unabsorbed_memory_ids": [oid(12)],
            "facts": [oid(24)],
            "createdAt": _naive(200),
        },
        {
            "_id": oid(0x504),
            "agent_id": AGENT_B_ID,
            "shard_name": "Office",
            "is_active": True,
            "content": "",
            "facts": [oid(60)],
        },
    ]
    return {"memory_sessions": sessions, "memory_user": users, "memory_agent": shards}


async def load(database: Any) -> None:
    for name, docs in v1_collections().items():
        await database[name].insert_many(docs)
