"""New fact ids: 128 random bits as hex, drawn from the system in pools."""

from __future__ import annotations

from eden_memory.application.ingestion.facts import RandomIds


def test_new_ids_are_distinct_hex_of_128_bits() -> None:
    draw = RandomIds()
    drawn = [draw() for _ in range(1500)]  # past one pool of 512
    assert len(set(drawn)) == 1500
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in drawn)
