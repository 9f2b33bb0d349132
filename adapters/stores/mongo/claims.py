"""Claims: one worker at a time forms a session's messages, across any number of processes.

``claim_messages`` is one ``find_one_and_update`` on the session (no unexpired claim of
another claim id, and enough pending messages; then the claim id and its expiry set): the
server guarantees at most one concurrent caller matches. The same claim id matches its own
live claim, so the update is idempotent and the gateway retries it after a lost reply. The
winner then tags the oldest pending messages with its claim id. ``complete_claim`` buffers
the reflections (ids as ``_id``: a retry adds nothing), marks the messages formed and clears
the claim only if the claim id still matches, all in one transaction where the deployment
has them, in that order elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from eden_memory.adapters.stores.mongo.buffering import buffer
from eden_memory.adapters.stores.mongo.codec import bson_time, time_update
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.messages import (
    owner_filter,
    session_filter,
    session_key,
)
from eden_memory.domain.errors import ConflictError, InvalidInputError
from eden_memory.domain.ids import AgentId, SessionId, check_id
from eden_memory.domain.models import Claim, Reflection

OLDEST = [("seq", 1), ("_id", 1)]


class Claims:
    """The claims on sessions' messages; ``MongoSessions`` serves them."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx

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
        check_id(claim_id, "claim id")
        if ttl_seconds <= 0 or limit <= 0:
            raise InvalidInputError("a claim needs a positive ttl and limit")
        ids = self.ctx.ids
        expires = now + timedelta(seconds=ttl_seconds)
        # Stored expiries are cut to the millisecond: compare one millisecond early, so a
        # claim is never taken over before it has really expired.
        expired = bson_time(now) - timedelta(milliseconds=1)
        # Free, expired, or this claimant's own (a retry after a lost reply takes it back).
        free = [{"claim_id": None}, {"claim_expires_at": {"$lte": expired}}, {"claim_id": claim_id}]
        update = time_update("claim_expires_at", expires)
        update["$set"]["claim_id"] = claim_id
        state = await self.ctx.sessions.find_one_and_update(
            {
                **session_filter(ids, agent_id, session_id),
                "pending_messages": {"$gte": min_messages},
                "$or": free,
            },
            update,
            retry=True,  # idempotent for its claim id: a retry takes back what the first set
        )
        if state is None:
            return None
        owner = owner_filter(ids, agent_id, session_id)
        pending = await self.ctx.messages.find({**owner, "formed": False}, sort=OLDEST, limit=limit)
        claimed = self.ctx.read.session(state)
        result = Claim(
            claim_id=claim_id,
            session=claimed,
            messages=tuple(self.ctx.read.message(d) for d in pending),
            claimed_at=now,
            expires_at=expires,
            plan=self.ctx.read.plan(state),
        )
        if not pending or len(pending) < min_messages:
            await self.release_claim(result)
            return None
        await self.ctx.messages.update_many(
            {**owner, "_id": {"$in": [d["_id"] for d in pending]}, "formed": False},
            {"$set": {"claim_id": claim_id}},
        )
        return result

    async def complete_claim(
        self, claim: Claim, reflections: Sequence[Reflection], now: datetime
    ) -> None:
        ids = self.ctx.ids
        state = claim.session
        sid = session_key(ids, state.agent_id, state.session_id)
        message_ids = [f"{sid}|{ids.record(m.id, 'message id')}" for m in claim.messages]
        owner = owner_filter(ids, state.agent_id, state.session_id)
        ours = {**session_filter(ids, state.agent_id, state.session_id), "claim_id": claim.claim_id}

        async def work(session: Any) -> None:
            if await self.ctx.sessions.find_one(ours, {"_id": 1}, session=session) is None:
                raise ConflictError(f"claim {claim.claim_id} expired and was taken over")
            await buffer(self.ctx, reflections, session=session)
            query = {**owner, "_id": {"$in": message_ids}, "formed": False}
            formed = await self.ctx.messages.find(query, {"weighted_tokens": 1}, session=session)
            done = time_update("formed_at", now)
            done["$set"].update(formed=True, claim_id=None)
            await self.ctx.messages.update_many(query, done, session=session, retry=False)
            update = time_update("last_formed_at", now)
            update["$set"].update(claim_id=None, claim_expires_at=None)
            update["$unset"] = {"formation_plan": ""}
            tokens = sum(float(d.get("weighted_tokens", 0.0)) for d in formed)
            update["$inc"] = {"pending_messages": -len(formed), "pending_tokens": -tokens}
            matched, _ = await self.ctx.sessions.update_one(
                ours, update, session=session, retry=False
            )
            if not matched:
                raise ConflictError(f"claim {claim.claim_id} expired and was taken over")

        await self.ctx.atomically(work, "complete_claim")

    async def save_plan(self, claim: Claim, plan: str) -> None:
        state = claim.session
        ours = {
            **session_filter(self.ctx.ids, state.agent_id, state.session_id),
            "claim_id": claim.claim_id,
        }
        matched, _ = await self.ctx.sessions.update_one(ours, {"$set": {"formation_plan": plan}})
        if not matched:
            raise ConflictError(f"claim {claim.claim_id} expired and was taken over")

    async def release_claim(self, claim: Claim) -> None:
        ids = self.ctx.ids
        state = claim.session
        owner = owner_filter(ids, state.agent_id, state.session_id)
        ours = {**session_filter(ids, state.agent_id, state.session_id), "claim_id": claim.claim_id}

        async def work(session: Any) -> None:
            await self.ctx.messages.update_many(
                {**owner, "claim_id": claim.claim_id, "formed": False},
                {"$set": {"claim_id": None}},
                session=session,
            )
            update = {"$set": {"claim_id": None, "claim_expires_at": None}}
            await self.ctx.sessions.update_one(ours, update, session=session)

        await self.ctx.atomically(work, "release_claim")
