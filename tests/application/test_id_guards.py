"""Bad ids are refused at the service's door, the same way on every store.

A host that passes ``{"$ne": 1}``, a list, a number, ``None`` or a malformed string where an
id belongs gets ``InvalidInputError`` naming the argument — never a raw ``TypeError``, a
store error or "not found" — and no store method is called.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError, NotFoundError
from eden_memory.domain.scopes import ScopeKey
from eden_memory.ports.stores import Stores
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM, memory_stores
from tests.application.faults import wrapped_stores
from tests.application.stores import STORES, stores_of_kind
from tests.application.story import START

BAD_IDS: list[Any] = [{"$ne": 1}, ["a"], 3, 3.5, None, True, b"x", "", "a b", "a\n"]


class Noting:
    """One part of a store that notes every method called on it, then lets the real one
    answer."""

    def __init__(self, inner: object, called: list[str]) -> None:
        self.inner, self.called = inner, called

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        async def noted(*args: Any, **kwargs: Any) -> Any:
            self.called.append(name)
            return await method(*args, **kwargs)

        return noted


class Watched:
    """A store whose every part notes the methods called on it, in one list."""

    def __init__(self, inner: Stores) -> None:
        self.called: list[str] = []

        self.stores = wrapped_stores(inner, lambda part: Noting(part, self.called))


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Watched]:
    inner = await stores_of_kind(request.param, tmp_path)
    yield Watched(inner)
    await inner.close()


def _service(store: Watched) -> MemoryService:
    llm = ScriptedLLM([])
    return MemoryService(store.stores, KeywordEmbedder(), llm, FakeClock(START))


async def _export(memory: MemoryService, agent: Any) -> None:
    async for _ in memory.admin.export(agent):
        pass


Call = Callable[[MemoryService, Any], Awaitable[object]]
K = ScopeKey.user("nova", "alice")
# (the call, the argument its message must name, whether None is a valid value there)
CALLS: dict[str, tuple[Call, str, bool]] = {
    "list_facts(agent)": (lambda m, bad: m.admin.list_facts(bad), "agent_id", False),
    "list_facts(user)": (
        lambda m, bad: m.admin.list_facts("nova", user_id=bad),
        "user_id",
        True,
    ),
    "get_fact(agent)": (lambda m, bad: m.admin.get_fact(bad, "f1"), "agent_id", False),
    "get_fact(fact)": (lambda m, bad: m.admin.get_fact("nova", bad), "fact_id", False),
    "fact_history": (lambda m, bad: m.admin.fact_history("nova", bad), "fact_id", False),
    "edit_fact(agent)": (
        lambda m, bad: m.admin.edit_fact(bad, "f1", "x", expected_version=1),
        "agent_id",
        False,
    ),
    "edit_fact(fact)": (
        lambda m, bad: m.admin.edit_fact("nova", bad, "x", expected_version=1),
        "fact_id",
        False,
    ),
    "delete_fact(agent)": (lambda m, bad: m.admin.delete_fact(bad, "f1"), "agent_id", False),
    "delete_fact(fact)": (lambda m, bad: m.admin.delete_fact("nova", bad), "fact_id", False),
    "list_reflections(agent)": (
        lambda m, bad: m.admin.list_reflections(bad),
        "agent_id",
        False,
    ),
    "list_reflections(key)": (
        lambda m, bad: m.admin.list_reflections("nova", bad),
        "key",
        True,
    ),
    "edit_reflection(agent)": (
        lambda m, bad: m.admin.edit_reflection(bad, "r1", "x", expected_version=1),
        "agent_id",
        False,
    ),
    "edit_reflection(reflection)": (
        lambda m, bad: m.admin.edit_reflection("nova", bad, "x", expected_version=1),
        "reflection_id",
        False,
    ),
    "delete_reflection(agent)": (
        lambda m, bad: m.admin.delete_reflection(bad, "r1"),
        "agent_id",
        False,
    ),
    "delete_reflection(reflection)": (
        lambda m, bad: m.admin.delete_reflection("nova", bad),
        "reflection_id",
        False,
    ),
    "get_consolidated": (lambda m, bad: m.admin.get_consolidated(bad), "key", False),
    "replace_consolidated": (
        lambda m, bad: m.admin.replace_consolidated(bad, "x", expected_version=0),
        "key",
        False,
    ),
    "stats(agent)": (lambda m, bad: m.admin.stats(bad), "agent_id", False),
    "stats(user)": (lambda m, bad: m.admin.stats("nova", bad), "user_id", True),
    "stats(session)": (lambda m, bad: m.admin.stats("nova", session_id=bad), "session_id", True),
    "consolidation_status(agent)": (
        lambda m, bad: m.admin.consolidation_status(bad),
        "agent_id",
        False,
    ),
    "erase_user(agent)": (lambda m, bad: m.admin.erase_user(bad, "alice"), "agent_id", False),
    "erase_user(user)": (lambda m, bad: m.admin.erase_user("nova", bad), "user_id", False),
    "export": (_export, "agent_id", False),
    "reembed": (lambda m, bad: m.admin.reembed([bad]), "agent_id", False),
}


@pytest.mark.parametrize("name", CALLS)
async def test_a_bad_id_is_refused_before_any_store_is_asked(store: Watched, name: str) -> None:
    call, argument, none_is_valid = CALLS[name]
    memory = _service(store)
    for bad in BAD_IDS:
        if bad is None and none_is_valid:
            continue
        with pytest.raises(InvalidInputError) as raised:
            await call(memory, bad)
        error = raised.value
        assert not isinstance(error, NotFoundError), f"{bad!r}: {error}"
        assert argument in str(error), f"{bad!r}: {error}"
        assert store.called == [], f"{bad!r} reached the store: {store.called}"


@pytest.mark.parametrize("name", CALLS)
async def test_good_ids_still_reach_the_store(store: Watched, name: str) -> None:
    call, _, _ = CALLS[name]
    good: Any = K if "key" in CALLS[name][1] else "nova-2"
    with contextlib.suppress(NotFoundError):  # nothing is stored: a valid id names nothing
        await call(_service(store), good)
    assert store.called


@pytest.mark.parametrize("agents", ["nova", b"nova", {"nova": 1}, 7])
async def test_reembed_takes_a_list_of_agents_not_a_single_one(store: Watched, agents: Any) -> None:
    with pytest.raises(InvalidInputError, match="agent_ids"):
        await _service(store).admin.reembed(agents)
    assert store.called == []


@pytest.mark.parametrize("users", ["alice", b"alice", 7, [{"$ne": 1}]])
def test_a_conversation_takes_a_list_of_users_not_a_single_one(users: Any) -> None:
    with pytest.raises(InvalidInputError, match="user_id"):
        _service(Watched(memory_stores())).conversation("nova", "s1", users)


@pytest.mark.parametrize("bad", BAD_IDS)
def test_a_conversation_refuses_bad_agent_and_session_ids(bad: Any) -> None:
    with pytest.raises(InvalidInputError, match="agent_id"):
        _service(Watched(memory_stores())).conversation(bad, "s1", ["alice"])
    with pytest.raises(InvalidInputError, match="session_id"):
        _service(Watched(memory_stores())).conversation("nova", bad, ["alice"])


@pytest.mark.parametrize(
    ("limit", "offset"), [(-1, 0), (0, -1), ("10", 0), (True, 0), (10, 2.5), (None, 0)]
)
async def test_a_listing_refuses_a_negative_or_non_integer_page(
    store: Watched, limit: Any, offset: Any
) -> None:
    with pytest.raises(InvalidInputError, match=r"limit|offset"):
        await _service(store).admin.list_facts("nova", limit=limit, offset=offset)
    assert store.called == []


@pytest.mark.parametrize(
    ("scope", "status"), [("galaxy", None), (None, "gone"), ({"$ne": 1}, None)]
)
async def test_a_listing_refuses_an_unknown_scope_or_status(
    store: Watched, scope: Any, status: Any
) -> None:
    with pytest.raises(InvalidInputError, match=r"scope|status"):
        await _service(store).admin.list_facts("nova", scope=scope, status=status)
    assert store.called == []


async def test_a_listing_takes_scope_and_status_by_name(store: Watched) -> None:
    memory = _service(store)
    assert await memory.admin.list_facts("nova", scope="user", status="retired") == []  # type: ignore[arg-type]
