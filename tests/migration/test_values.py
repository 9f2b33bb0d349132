"""Reading v1 values: ids in either form, times, deterministic target ids."""

from __future__ import annotations

from datetime import UTC, datetime

from bson import ObjectId

from eden_memory.domain.migration.values import (
    created_time,
    id_list,
    source_id,
    target_id,
    utc_time,
    valid_id,
)


def test_ids_in_either_form_are_the_same() -> None:
    oid = ObjectId("65a1b2c3d4e5f60718293a4b")
    assert source_id(oid) == source_id(str(oid)) == source_id({"$oid": str(oid)})
    assert source_id(None) is None
    assert source_id("  ") is None
    assert source_id(True) is None
    assert source_id(7) == "7"
    assert id_list([oid, "x", None, 3.5]) == [str(oid), "x"]
    assert id_list("not a list") == []


def test_unusable_ids() -> None:
    assert valid_id("user 1") is None  # spaces cannot be an eden-memory id
    assert valid_id("u-1") == "u-1"


def test_times() -> None:
    naive = datetime(2025, 1, 2, 3, 4)
    assert utc_time(naive) == datetime(2025, 1, 2, 3, 4, tzinfo=UTC)
    assert utc_time("2025-01-02T03:04:00Z") == datetime(2025, 1, 2, 3, 4, tzinfo=UTC)
    assert utc_time("yesterday") is None
    oid = ObjectId.from_datetime(datetime(2024, 5, 6, tzinfo=UTC))
    assert created_time({"_id": oid}) == datetime(2024, 5, 6, tzinfo=UTC)
    assert created_time({"_id": "string-id"}) is None


def test_target_ids_are_deterministic_and_distinct() -> None:
    assert target_id("fact", "a", "1") == target_id("fact", "a", "1")
    assert target_id("fact", "a", "1") != target_id("fact", "b", "1")
    assert target_id("fact", "a", "1") != target_id("dir", "a", "1")
