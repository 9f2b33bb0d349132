"""Records read back exactly as written, though BSON dates stop at milliseconds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.mongo.codec import (
    MICROS,
    bson_time,
    decode_document,
    encode_document,
    time_update,
)
from eden_memory.domain.scopes import FactVisibility, Scope
from tests.unit.adapters.mongo.builders import T0, A, axis, fact, mongomock_store

aware = st.datetimes(
    min_value=datetime(1970, 1, 2), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
)


@settings(max_examples=200, deadline=None)
@given(when=aware)
def test_a_time_survives_the_millisecond_cut(when: datetime) -> None:
    document = encode_document({"at": when, "nested": {"at": when}, "items": [{"at": when}]})
    assert document["at"] == bson_time(when)
    assert document["at"].microsecond % 1000 == 0
    decoded = decode_document(document)
    assert decoded == {"at": when, "nested": {"at": when}, "items": [{"at": when}]}


def test_naive_times_from_a_client_without_tz_aware_are_read_as_utc() -> None:
    stored = {"at": datetime(2026, 1, 1, 12, 0, 0, 123000), MICROS: {"at": 456}}
    assert decode_document(stored)["at"] == datetime(2026, 1, 1, 12, 0, 0, 123456, tzinfo=UTC)


def test_time_updates_set_or_clear_the_kept_microseconds() -> None:
    exact = datetime(2026, 1, 1, 12, 0, 0, 123456, tzinfo=UTC)
    assert time_update("seen", exact) == {"$set": {"seen": bson_time(exact), f"{MICROS}.seen": 456}}
    assert time_update("seen", T0) == {"$set": {"seen": T0}, "$unset": {f"{MICROS}.seen": ""}}


async def test_facts_with_microseconds_round_trip_and_order_exactly() -> None:
    store = mongomock_store()
    base = T0 + timedelta(microseconds=250)
    first, second = (
        fact("first", formed_at=base),
        fact("second", formed_at=base + timedelta(microseconds=500)),
    )
    await store.facts.add_facts([first, second], [axis(0), axis(1)])
    assert await store.facts.get_facts([first.id, second.id]) == [first, second]
    viewer = FactVisibility(A, None, frozenset({Scope.AGENT}))
    assert await store.facts.recent_facts(viewer, base, 5) == [second, first]
    assert await store.facts.recent_facts(viewer, base + timedelta(microseconds=1), 5) == [second]
