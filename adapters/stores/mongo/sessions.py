"""Session state: recorded turns, pending counters, activity; cold sessions for a scheduler.

Recording a turn upserts its messages by id (``$setOnInsert``: a retried turn adds
nothing) and moves the pending counters by exactly the messages that were new, in one
transaction where the deployment has them. Elsewhere the messages are written first and
the counters after, so a crash in between can only leave a counter short, never a message
lost: claims select messages from the messages collection, not from the counter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from eden_memory.adapters.stores.mongo.claims import Claims
from eden_memory.adapters.stores.mongo.codec import MICROS, bson_time, time_update
from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.messages import (
    message_document,
    owner_filter,
    profile_update,
    said_alone_by,
    session_filter,
)
from eden_memory.domain.errors import InvalidInputError, StoreError
from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.models import Claim, Reflection, SessionState
from eden_memory.domain.participants import (
    check_participants,
    outlives_member,
    users_after_turn,
)
from eden_memory.domain.profile import SessionProfile
from eden_memory.ports.stores import PendingMessage

MESSAGE_SHARD_KEY = ("agent_id", "session_id")  # see docs/atlas.md, "Sharding"
LEAST_RECENT_FIRST = [("last_activity_at", 1), (f"{MICROS}.last_activity_at", 1), ("_id", 1)]


# A saved formation plan (``claims.save_plan``) is read only by the claim that carries it out.
WITHOUT_PLAN = {"formation_plan": 0}


class MongoSessions:
    """The ``SessionStore`` on MongoDB: sessions and their messages here, claims in ``Claims``."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx
        self._claims = Claims(ctx)

    async def claim_messages(
        self,
        agent_id: AgentId,
        session_id: SessionId,
        claim_id: str,
        now: datetime,
        ttl_seconds: float,
        min_messages: int,
        limit: int,
    ) -> Claim | None:
        return await self._claims.claim_messages(
            agent_id, session_id, claim_id, now, ttl_seconds, min_messages, limit
        )

    async def save_plan(self, claim: Claim, plan: str) -> None:
        await self._claims.save_plan(claim, plan)

    async def complete_claim(
        self, claim: Claim, reflections: Sequence[Reflection], now: datetime
    ) -> None:
        await self._claims.complete_claim(claim, reflections, now)

    async def release_claim(self, claim: Claim) -> None:
        await self._claims.release_claim(claim)

    async def record_messages(
        self, profile: SessionProfile, messages: Sequence[PendingMessage], now: datetime
    ) -> SessionState:
        ids = self.ctx.ids
        chosen = session_filter(ids, profile.agent_id, profile.session_id)

        async def work(session: Any) -> Document:
            given = profile
            was = await self.ctx.sessions.find_one(chosen, WITHOUT_PLAN, session=session)
            if was is not None:
                known = self.ctx.read.session(was)
                check_participants(
                    profile.session_id,
                    known.profile.user_ids,
                    profile.user_ids,
                    known.pending_messages,
                )
                given = replace(
                    profile, user_ids=users_after_turn(known.profile.user_ids, given.user_ids)
                )
            update = profile_update(ids, given, now)
            update["$inc"] = {"next_seq": len(messages)}
            state = await self.ctx.sessions.find_one_and_update(
                chosen, update, upsert=True, session=session, projection=WITHOUT_PLAN
            )
            if state is None:  # pragma: no cover - an upsert always returns the document
                raise StoreError(f"session {chosen['_id']} could not be recorded")
            first = int(state["next_seq"]) - len(messages)
            heard = [m.heard_by(given.user_ids) for m in messages]
            writes = [message_document(ids, profile, m, first + i) for i, m in enumerate(heard)]
            new = await self.ctx.messages.insert_missing(writes, MESSAGE_SHARD_KEY, session=session)
            if not new:
                return state
            tokens = sum(float(messages[i].weighted_tokens) for i in new)
            counted = await self.ctx.sessions.find_one_and_update(
                chosen,
                {"$inc": {"pending_messages": len(new), "pending_tokens": tokens}},
                session=session,
                projection=WITHOUT_PLAN,
            )
            return counted or state

        document = await self.ctx.atomically(work, "record_messages")
        return self.ctx.read.session(document)

    async def get_session(self, agent_id: AgentId, session_id: SessionId) -> SessionState | None:
        found = await self.ctx.sessions.find_one(
            session_filter(self.ctx.ids, agent_id, session_id), WITHOUT_PLAN
        )
        return None if found is None else self.ctx.read.session(found)

    async def end_session(
        self, agent_id: AgentId, session_id: SessionId, now: datetime
    ) -> SessionState | None:
        chosen = session_filter(self.ctx.ids, agent_id, session_id)
        found = await self.ctx.sessions.find_one_and_update(
            chosen, time_update("ended_at", now), projection=WITHOUT_PLAN
        )
        return None if found is None else self.ctx.read.session(found)

    async def cold_sessions(
        self, idle_before: datetime, min_messages: int, limit: int
    ) -> list[SessionState]:
        if limit <= 0:
            return []
        query = {
            "last_activity_at": {"$lte": bson_time(idle_before)},
            "pending_messages": {"$gte": min_messages},
        }
        found = await self.ctx.sessions.find(
            query, WITHOUT_PLAN, sort=LEAST_RECENT_FIRST, limit=limit
        )
        states = [self.ctx.read.session(d) for d in found]
        return [
            s
            for s in states
            if s.last_activity_at is not None and s.last_activity_at <= idle_before
        ]

    async def sessions_of_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionState]:
        ids = self.ctx.ids
        query = {
            "agent_id": ids.owner(agent_id, "agent_id"),
            "user_ids": ids.owner(user_id, "user_id"),
        }
        found = await self.ctx.sessions.find(query, WITHOUT_PLAN, sort=[("_id", 1)])
        return [self.ctx.read.session(d) for d in found]

    async def remove_user(self, agent_id: AgentId, user_id: UserId) -> list[SessionId]:
        ids = self.ctx.ids
        query = {
            "agent_id": ids.owner(agent_id, "agent_id"),
            "user_ids": ids.owner(user_id, "user_id"),
        }
        found = await self.ctx.sessions.find(query, {"session_id": 1}, sort=[("_id", 1)])
        for document in found:
            await self.ctx.sessions.update_one(
                {"_id": document["_id"], "agent_id": query["agent_id"]},
                {"$pull": {"user_ids": query["user_ids"]}},
            )
        return [SessionId(str(ids.read(d["session_id"]))) for d in found]

    async def delete_session(self, agent_id: AgentId, session_id: SessionId) -> int:
        ids = self.ctx.ids
        owner = owner_filter(ids, agent_id, session_id)
        chosen = session_filter(ids, agent_id, session_id)

        async def work(session: Any) -> int:
            removed = await self.ctx.messages.delete_many(owner, session=session)
            await self.ctx.sessions.delete_many(chosen, session=session)
            return removed

        return await self.ctx.atomically(work, "delete_session")

    async def drop_pending_context(
        self, agent_id: AgentId, session_id: SessionId, remaining: Sequence[UserId]
    ) -> int:
        owner = owner_filter(self.ctx.ids, agent_id, session_id)

        async def work(session: Any) -> int:
            pending = await self.ctx.messages.find({**owner, "formed": False}, session=session)
            doomed = [
                d for d in pending if not outlives_member(self.ctx.read.message(d), remaining)
            ]
            if not doomed:
                return 0
            await self.ctx.messages.delete_many(
                {**owner, "_id": {"$in": [d["_id"] for d in doomed]}}, session=session
            )
            tokens = sum(float(d["weighted_tokens"]) for d in doomed)
            await self.ctx.sessions.update_one(
                session_filter(self.ctx.ids, agent_id, session_id),
                {"$inc": {"pending_messages": -len(doomed), "pending_tokens": -tokens}},
                session=session,
                retry=False,
            )
            return len(doomed)

        return await self.ctx.atomically(work, "drop_pending_context")

    async def delete_messages_by_author(self, agent_id: AgentId, author_id: str) -> int:
        if not isinstance(author_id, str) or not author_id:
            raise InvalidInputError("author_id must be a non-empty string")
        query = {
            "agent_id": self.ctx.ids.owner(agent_id, "agent_id"),
            "$or": [{"author_id": author_id}, said_alone_by(author_id)],
        }

        async def work(session: Any) -> int:
            pending = await self.ctx.messages.find(
                {**query, "formed": False}, {"session_id": 1, "weighted_tokens": 1}, session=session
            )
            removed = await self.ctx.messages.delete_many(query, session=session)
            agent = query["agent_id"]
            for stored, (count, tokens) in _per_session(pending).items():
                await self.ctx.sessions.update_one(
                    session_filter(self.ctx.ids, agent, stored),
                    {"$inc": {"pending_messages": -count, "pending_tokens": -tokens}},
                    session=session,
                    retry=False,
                )
            return removed

        return await self.ctx.atomically(work, "delete_messages_by_author")


def _per_session(pending: list[Document]) -> dict[Any, tuple[int, float]]:
    """Pending messages removed, per stored session id: (how many, their weighted tokens)."""
    out: dict[Any, tuple[int, float]] = {}
    for document in pending:
        count, tokens = out.get(document["session_id"], (0, 0.0))
        out[document["session_id"]] = (count + 1, tokens + float(document["weighted_tokens"]))
    return out
