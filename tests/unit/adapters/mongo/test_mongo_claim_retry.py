"""The gateway retries a claim whose reply was lost: the retry takes back the claim it took.

``find_one_and_update`` is retried after a transient error; when the first attempt had
already set the claim, the retry must match it (same claim id), not find the session held
and answer "no claim" for the claim's whole lifetime.
"""

from __future__ import annotations

from typing import Any

import pytest
from pymongo.errors import AutoReconnect

from tests.contract.store.world import S1, T0, A, claimed, messages, profile
from tests.unit.adapters.mongo.builders import mongomock_store


async def test_the_retry_of_a_claim_whose_reply_was_lost_gets_the_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = mongomock_store()
    await store.sessions.record_messages(profile(), messages(1, 4), T0)
    raw = store.ctx.sessions.raw
    real = raw.find_one_and_update
    attempts: list[int] = []

    async def reply_lost_once(*args: Any, **kwargs: Any) -> Any:
        found = await real(*args, **kwargs)
        attempts.append(1)
        if len(attempts) == 1:
            raise AutoReconnect("connection closed after the write")
        return found

    monkeypatch.setattr(raw, "find_one_and_update", reply_lost_once)
    claim = await store.sessions.claim_messages(A, S1, "worker-1", T0, 60.0, 1, 100)
    assert len(attempts) == 2
    assert claimed(claim) == ["msg-1", "msg-2", "msg-3", "msg-4"]
    assert await store.sessions.claim_messages(A, S1, "worker-2", T0, 60.0, 1, 100) is None
