"""The bounded cache against a plain model of its policy: least recently used out beyond the
size bound, nothing kept once its time-to-live has passed."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from eden_memory.application.context.bounded_cache import BoundedCache

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
TTL = timedelta(seconds=300)


@dataclass
class Model:
    """The policy, written as plainly as possible: a list, scanned in full every time."""

    max_entries: int
    ttl: timedelta
    held: dict[str, tuple[int, datetime, int]] = field(default_factory=dict)  # value, stored, used
    tick: int = 0

    def expire(self, now: datetime) -> None:
        self.held = {k: e for k, e in self.held.items() if now - e[1] < self.ttl}

    def get(self, key: str, now: datetime) -> int | None:
        self.expire(now)
        self.tick += 1
        if key not in self.held:
            return None
        value, stored, _ = self.held[key]
        self.held[key] = (value, stored, self.tick)
        return value

    def put(self, key: str, value: int, now: datetime) -> None:
        self.expire(now)
        self.tick += 1
        self.held.pop(key, None)
        if self.max_entries > 0 and self.ttl > timedelta(0):
            self.held[key] = (value, now, self.tick)
        while len(self.held) > self.max_entries:
            del self.held[min(self.held, key=lambda k: self.held[k][2])]


operations = st.lists(
    st.tuples(
        st.sampled_from(["get", "put"]),
        st.sampled_from("abcdefgh"),
        st.integers(min_value=0, max_value=200),  # seconds the clock moves first
    ),
    max_size=80,
)


@settings(max_examples=200, deadline=None)
@given(operations, st.integers(min_value=0, max_value=5), st.sampled_from([0, 60, 300]))
def test_the_cache_keeps_exactly_what_the_policy_says(
    ops: list[tuple[str, str, int]], max_entries: int, ttl_seconds: int
) -> None:
    ttl = timedelta(seconds=ttl_seconds)
    cache: BoundedCache[str, int] = BoundedCache(max_entries, ttl)
    model = Model(max_entries, ttl)
    now = T0
    for number, (op, key, wait) in enumerate(ops):
        now += timedelta(seconds=wait)
        if op == "get":
            assert cache.get(key, now) == model.get(key, now)
        else:
            cache.put(key, number, now)
            model.put(key, number, now)
        assert len(cache) == len(model.held) <= max_entries
        oldest = cache.oldest()
        assert oldest is None or now - oldest < ttl


def test_a_hot_key_outlives_a_stream_of_cold_ones() -> None:
    cache: BoundedCache[str, int] = BoundedCache(3, TTL)
    cache.put("hot", 0, T0)
    for i in range(100):
        cache.put(f"cold-{i}", i, T0)
        assert cache.get("hot", T0) == 0
    assert len(cache) == 3


def test_expired_entries_are_dropped_at_the_next_call_even_for_other_keys() -> None:
    cache: BoundedCache[str, int] = BoundedCache(100, TTL)
    for i in range(50):
        cache.put(f"k{i}", i, T0 + timedelta(seconds=i))
    assert cache.get("other", T0 + TTL + timedelta(seconds=10)) is None
    assert len(cache) == 39  # k11..k49: stored less than five minutes ago
