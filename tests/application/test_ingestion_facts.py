"""Ingestion builds a fact without validating it twice: the result is ``Fact``'s own.

``ingestion.build_fact`` checks only what ``Fact`` adds to an already validated item. For any
item, it must give the same fact as ``Fact``'s validation, or refuse when that refuses.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from eden_memory.application.ingestion import FactInput, RandomIds, build_fact
from eden_memory.domain.embedding_space import EmbeddingSpace
from eden_memory.domain.errors import InvalidInputError
from eden_memory.domain.models import Fact
from eden_memory.domain.scopes import Scope
from eden_memory.domain.text import single_line

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SPACE = EmbeddingSpace("m", 8)
ids = st.one_of(
    st.sampled_from(["alice", "u-1", "a.b@c", "x/y=z", ""]),
    st.text(max_size=6),
    st.text(alphabet="ab-_", min_size=199, max_size=202),
)
zones = st.sampled_from([None, UTC, timezone(timedelta(hours=-5)), timezone(timedelta(hours=9))])
items = st.builds(
    FactInput,
    content=st.sampled_from(["Alice moved to Lyon", "  two   spaces ", "Ünïcode  Café."]),
    scope=st.sampled_from(list(Scope)),
    agent_id=ids,
    user_id=st.one_of(st.none(), ids),
    formed_at=st.builds(
        lambda base, zone: base.replace(tzinfo=zone),
        st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2030, 1, 1)),
        zones,
    ),
    source_session_id=st.one_of(st.none(), ids),
    source_message_ids=st.lists(ids, max_size=2).map(tuple),
    id=st.one_of(st.none(), ids),
)


def _validated(item: FactInput, content: str) -> Fact | None:
    try:
        return Fact(
            id=item.id or "new-id",
            content=content,
            scope=item.scope,
            agent_id=item.agent_id,
            user_id=item.user_id,
            source_session_id=item.source_session_id,
            source_message_ids=item.source_message_ids,
            formed_at=item.formed_at,
            created_at=NOW,
            updated_at=NOW,
            embedding_model=SPACE.model,
            embedding_dim=SPACE.dimension,
        )
    except (ValidationError, InvalidInputError):
        return None


def _built(item: FactInput, content: str) -> Fact | None:
    try:
        return build_fact(item, content, NOW, SPACE, lambda: "new-id")
    except InvalidInputError:
        return None


@given(items)
def test_a_built_fact_is_the_validated_fact_or_both_refuse(item: FactInput) -> None:
    content = single_line(item.content, what="fact")
    expected, built = _validated(item, content), _built(item, content)
    assert (built is None) == (expected is None)
    if built is not None and expected is not None:
        assert built.model_dump() == expected.model_dump()
        assert built.model_dump_json() == expected.model_dump_json()
        assert Fact.model_validate_json(built.model_dump_json()) == built


def test_new_ids_are_distinct_hex_of_128_bits() -> None:
    draw = RandomIds()
    drawn = [draw() for _ in range(1500)]  # past one pool of 512
    assert len(set(drawn)) == 1500
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in drawn)
