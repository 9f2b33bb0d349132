"""Every number of every settings model, at its extremes: refused when it is given, naming
the setting, or used without an overflow (issue 40, item 5).

The numbers are found by walking the models, so a setting added later is covered too. A
value a model accepts runs what reads the numbers: building the service, a context, a
search, a formation and the cold-session sweep, on the fake store and the embedded one.
Before the bounds, ``facts.fifo_max_age_hours = inf`` broke every context with a bare
``OverflowError``, ``context.cache_ttl_seconds = inf`` the service itself, and
``search.max_top_k = 2**63`` the embedded store's search.
"""

from __future__ import annotations

import contextlib
import math
import types
import typing
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import annotated_types
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from eden_memory.adapters.wrappers.retry import backoff_ceiling
from eden_memory.application.service import MemoryService
from eden_memory.config import EdenMemoryConfig
from eden_memory.container.stores import mongo_client, mongo_options
from eden_memory.domain.agent_settings import AgentSettings
from eden_memory.domain.errors import EdenMemoryError, InvalidInputError
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.domain.settings import MemorySettings
from eden_memory.factory import open_memory
from eden_memory.ports.stores import Stores
from eden_memory.testing import FakeClock, KeywordEmbedder, LookupModel, ScriptedLLM
from tests.application.stores import stores_of_kind

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
Path_ = tuple[str, ...]
EXTREMES: list[object] = [
    math.inf,
    -math.inf,
    math.nan,
    -1,
    0,
    1,
    0.5,
    1e-308,
    1e308,
    2**63 - 1,
    2**63,
    2**64,
]


def _parts(annotation: object) -> Iterator[object]:
    """The types and constraints inside an annotation (unions and ``Annotated`` opened)."""
    if isinstance(annotation, FieldInfo):  # ``Field(...)`` inside a union
        yield from annotation.metadata
    elif typing.get_origin(annotation) is typing.Annotated:
        base, *metadata = typing.get_args(annotation)
        for item in metadata:
            yield from _parts(item)
        yield from _parts(base)
    elif typing.get_origin(annotation) in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            yield from _parts(arg)
    else:
        yield annotation


def numbers(model: type[BaseModel], path: Path_ = ()) -> Iterator[tuple[Path_, list[object]]]:
    """Each numeric field of ``model`` and its nested models, with its own bounds."""
    for name, info in model.model_fields.items():
        parts = [*_parts(info.annotation), *info.metadata]
        for part in parts:
            if isinstance(part, type) and issubclass(part, BaseModel):
                yield from numbers(part, (*path, name))
        if any(part in (int, float) for part in parts):
            yield (*path, name), [v for p in parts for v in _edges(p)]


def _edges(part: object) -> list[object]:
    """A constraint's bound and the values either side of it."""
    kinds = (annotated_types.Ge, annotated_types.Gt, annotated_types.Le, annotated_types.Lt)
    if not isinstance(part, kinds):
        return []
    bound = getattr(part, type(part).__name__.lower())
    if isinstance(bound, int):
        return [bound - 1, bound, bound + 1]
    return [math.nextafter(bound, -math.inf), bound, math.nextafter(bound, math.inf)]


def nested(path: Path_, value: object) -> dict[str, Any]:
    out: Any = value
    for name in reversed(path):
        out = {name: out}
    return dict(out)


def refused_naming(error: Exception, path: Path_) -> None:
    """A refusal names the setting (pydantic's dotted location, or its last part)."""
    assert ".".join(path) in str(error) or path[-1] in str(error), str(error)


GLOBALS = list(numbers(MemorySettings))
AGENTS = list(numbers(AgentSettings))
CONFIG = [(p, e) for p, e in numbers(EdenMemoryConfig) if p[0] != "memory"]


def _ids(fields: list[tuple[Path_, list[object]]]) -> list[str]:
    return [".".join(path) for path, _ in fields]


async def exercise(memory: MemoryService, agent: AgentSettings) -> None:
    """What reads the numbers: a context, a search, a formation, the cold-session sweep."""
    conv = memory.conversation(
        AgentMemoryConfig("nova", settings=agent), f"s-{uuid.uuid4().hex}", ["alice"]
    )
    said = [
        {"content": f"Alice {what}", "agent_id": "nova", "user_id": "alice", "formed_at": NOW}
        for what in ("drinks green tea", "lives in Lyon", "plays chess")
    ]
    await memory.admin.add_facts(said)
    context = await memory.get_context(conv)
    assert "Alice" in context.xml or not memory.settings.facts.fifo_limit or agent.changes
    query = "Alice tea"[: conv.effective(memory.settings).search.max_query_chars]
    found = await memory.search_facts(conv, [query])
    assert all(math.isfinite(r.score) and r.score >= 0 for r in found.results)
    turn = [{"role": "user", "content": f"message {n}"} for n in range(6)]
    await memory.record_messages(conv, turn, background=False)
    await memory.form_memories(conv)
    await memory.process_cold_sessions()
    await memory.get_context(conv, refresh=True)


def service(stores: Stores, settings: MemorySettings | None = None) -> MemoryService:
    return MemoryService(
        stores, KeywordEmbedder(), ScriptedLLM(LookupModel()), FakeClock(NOW), settings
    )


async def check_global(stores: Stores, path: Path_, value: object) -> None:
    try:
        chosen = MemorySettings.model_validate(nested(path, value))
    except ValidationError as error:
        refused_naming(error, path)
        return
    memory = service(stores, chosen)
    try:
        await exercise(memory, AgentSettings())
    finally:
        await memory.aclose()


async def check_agent(stores: Stores, path: Path_, value: object) -> None:
    try:
        agent = AgentSettings.of(nested(path, value))
        agent.over(MemorySettings())  # valid alone, but not over the globals (top k > max)
    except InvalidInputError as error:
        refused_naming(error, path)
        return
    memory = service(stores)
    try:
        await exercise(memory, agent)
    finally:
        await memory.aclose()


async def check_config(path: Path_, value: object) -> None:
    try:
        config = EdenMemoryConfig.model_validate(
            {
                "store": "memory",
                "embedder": "keyword",
                "mongodb_uri": "mongodb://127.0.0.1:9",
                **nested(path, value),
            }
        )
    except ValidationError as error:
        refused_naming(error, path)
        return
    waits = [
        backoff_ceiling(
            n, config.provider_backoff_base_seconds, config.provider_backoff_max_seconds
        )
        for n in range(config.provider_max_retries + 1)
    ]
    assert all(math.isfinite(w) and w >= 0 for w in waits)
    mongo_options(config)
    clients = mongo_client(config)
    await anext(clients)  # built, not connected: PyMongo takes the timeout in milliseconds
    with contextlib.suppress(StopAsyncIteration):
        await anext(clients)  # and closed
    async with open_memory(config, llm=ScriptedLLM(LookupModel()), clock=FakeClock(NOW)) as memory:
        await exercise(memory, AgentSettings())


Checker = Callable[[Stores, Path_, object], Any]
CHECKS: Mapping[str, tuple[list[tuple[Path_, list[object]]], Checker]] = {
    "global": (GLOBALS, check_global),
    "agent": (AGENTS, check_agent),
}


@pytest.fixture(params=["memory", "sqlite"])
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Stores]:
    made = await stores_of_kind(request.param, tmp_path)
    yield made
    await made.close()


def test_the_walk_finds_the_numbers_the_issue_names() -> None:
    found = {".".join(p) for p, _ in [*GLOBALS, *AGENTS, *CONFIG]}
    named = {
        "facts.fifo_max_age_hours",
        "facts.fifo_limit",
        "search.max_top_k",
        "context.cache_ttl_seconds",
        "formation.cold_after_minutes",
        "formation.claim_ttl_seconds",
        "search.min_candidates_per_list",
        "search.time_boost",
        "consolidation.thresholds.agent",
        "formation.role_weights.user",
        "llm_timeout_seconds",
        "provider_max_retries",
    }
    assert named <= found
    assert len(GLOBALS) > 50


@pytest.mark.parametrize(("path", "edges"), GLOBALS, ids=_ids(GLOBALS))
async def test_a_global_number_at_any_extreme_is_refused_or_used(
    stores: Stores, path: Path_, edges: list[object]
) -> None:
    for value in [*EXTREMES, *edges]:
        await check_global(stores, path, value)


@pytest.mark.parametrize(("path", "edges"), AGENTS, ids=_ids(AGENTS))
async def test_an_agent_number_at_any_extreme_is_refused_or_used(
    stores: Stores, path: Path_, edges: list[object]
) -> None:
    for value in [*EXTREMES, *edges]:
        await check_agent(stores, path, value)


@pytest.mark.parametrize(("path", "edges"), CONFIG, ids=_ids(CONFIG))
async def test_a_configuration_number_at_any_extreme_is_refused_or_used(
    path: Path_, edges: list[object]
) -> None:
    for value in [*EXTREMES, *edges]:
        await check_config(path, value)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.differing_executors],
)
@given(
    kind=st.sampled_from(sorted(CHECKS)),
    pick=st.integers(min_value=0),
    value=st.one_of(
        st.floats(),
        st.integers(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from(EXTREMES),
    ),
)
async def test_any_number_given_to_any_setting_is_refused_or_used(
    stores: Stores, kind: str, pick: int, value: object
) -> None:
    fields, check = CHECKS[kind]
    path, _ = fields[pick % len(fields)]
    await check(stores, path, value)


def test_a_bad_number_in_the_environment_is_one_line_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from eden_memory.config import from_environment
    from eden_memory.domain.errors import ConfigurationError

    monkeypatch.setenv("EDEN_MEMORY_MEMORY__FACTS__FIFO_MAX_AGE_HOURS", "inf")
    with pytest.raises(ConfigurationError, match="fifo_max_age_hours") as caught:
        from_environment()
    assert isinstance(caught.value, EdenMemoryError)
    assert "\n" not in str(caught.value)
