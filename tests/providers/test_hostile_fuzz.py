"""Any one field of a valid answer replaced by any JSON value (or removed): every adapter
either answers or raises one of the library's errors, on one line."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from eden_memory.domain.errors import EdenMemoryError
from tests.providers import gemini_wire, openai_wire
from tests.providers.hostile import ADAPTERS, DELETE, SDK_READS, Path, broken
from tests.providers.standin import Recorded, Reply, StandIn

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def paths(value: Any, prefix: Path = ()) -> Iterator[Path]:
    """Every field and item of a JSON value, outermost first."""
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, inner in items:
        yield (*prefix, key)
        yield from paths(inner, (*prefix, key))


class Breaker:
    """Answers each request with the adapter's valid answer, one field changed."""

    def __init__(self, name: str) -> None:
        self.adapter = ADAPTERS[name]
        self.pick = 0
        self.value: Any = DELETE
        self.changed: Path = ()

    def respond(self, sent: Recorded) -> Reply:
        valid = self.adapter.valid(sent)
        every = list(paths(valid))
        self.changed = every[self.pick % len(every)]
        return Reply(200, broken(valid, self.changed, self.value))

    def in_the_known_gap(self) -> bool:
        """google-genai's embed_content iterating a number (see test_hostile_answers)."""
        scalar = isinstance(self.value, int | float) and self.changed == ("embeddings",)
        return self.adapter.name == SDK_READS and scalar


@pytest.fixture(params=list(ADAPTERS))
async def breaker(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Breaker, Any]]:
    breaker = Breaker(request.param)
    wire = openai_wire if breaker.adapter.wire == "openai" else gemini_wire
    with StandIn(breaker.respond, wire.authorize) as server:
        made = breaker.adapter.make(server.url)
        yield breaker, made
        await made.aclose()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(pick=st.integers(min_value=0, max_value=10_000), value=JSON | st.just(DELETE))
async def test_one_broken_field_is_an_answer_or_one_of_our_errors(
    breaker: tuple[Breaker, Any], pick: int, value: Any
) -> None:
    changer, made = breaker
    changer.pick, changer.value = pick, value
    message = ""
    try:
        await changer.adapter.ask(made)
    except EdenMemoryError as error:
        message = str(error)
    except TypeError:
        if not changer.in_the_known_gap():
            raise
        reject()
    assert "\n" not in message
    assert len(message) < 600
