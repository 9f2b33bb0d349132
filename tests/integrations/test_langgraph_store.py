"""EdenStore, LangGraph's BaseStore over the facts: what is put is found, by LangGraph's
methods (sync from a thread, and async) and by conversations, and stays with its user."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.tools import ToolRuntime
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.store.base import InvalidNamespaceError

from eden_memory.adapters.integrations.langgraph import EdenStore, NamespaceError
from eden_memory.domain.errors import ConflictError, InvalidInputError
from eden_memory.domain.models import FactStatus
from tests.application.story import Story, make_world
from tests.integrations.langchain_fake import ToolTakingFakeModel

ALICE = ("nova", "user", "alice")
BOB = ("nova", "user", "bob")
SHARED = ("nova", "agent")


class Sync:
    """The store's sync methods, called from a worker thread as LangGraph's sync nodes are."""

    def __init__(self, store: EdenStore) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.store, name.removeprefix("a"))

        async def call(*args: Any, **kwargs: Any) -> Any:
            return await asyncio.to_thread(method, *args, **kwargs)

        return call


def _store(mode: str) -> tuple[Any, EdenStore]:
    world = make_world()
    store = EdenStore(world.memory)
    return (store if mode == "async" else Sync(store)), store


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def test_put_get_search_and_delete_stay_with_their_user(mode: str) -> None:
    store, _ = _store(mode)
    await store.aput(ALICE, "home", {"content": "Alice lives in Oslo"})
    await store.aput(BOB, "home", {"content": "Bob lives in Lima"})
    await store.aput(SHARED, "hours", {"content": "The office opens at 9"})

    alice = await store.aget(ALICE, "home")
    assert (alice.namespace, alice.key, alice.value) == (
        ALICE,
        "home",
        {"content": "Alice lives in Oslo"},
    )
    found = await store.asearch(ALICE, query="where does she live")
    assert [(h.namespace, h.value["content"]) for h in found] == [(ALICE, "Alice lives in Oslo")]
    assert found[0].score is not None
    assert 0 < found[0].score <= 1
    assert [h.value["content"] for h in await store.asearch(BOB, query="lives")] == [
        "Bob lives in Lima"
    ]
    assert [h.key for h in await store.asearch(SHARED, query="office")] == ["hours"]

    await store.adelete(ALICE, "home")
    assert await store.aget(ALICE, "home") is None
    assert (await store.aget(BOB, "home")).value == {"content": "Bob lives in Lima"}


async def test_a_put_under_a_key_supersedes_the_keys_fact(mode: str) -> None:
    store, eden = _store(mode)
    await store.aput(ALICE, "home", {"content": "Alice lives in Oslo"})
    await store.aput(ALICE, "home", {"content": "Alice lives in Bergen"})

    assert (await store.aget(ALICE, "home")).value == {"content": "Alice lives in Bergen"}
    assert [h.value["content"] for h in await store.asearch(ALICE)] == ["Alice lives in Bergen"]
    facts = await eden.memory.admin.list_facts("nova", user_id="alice", status=None)
    assert {(f.content, f.status) for f in facts} == {
        ("Alice lives in Oslo", FactStatus.RETIRED),
        ("Alice lives in Bergen", FactStatus.ACTIVE),
    }
    await store.adelete(ALICE, "home")  # the key's history goes too
    assert await eden.memory.admin.list_facts("nova", user_id="alice", status=None) == []


async def test_facts_formed_in_conversations_are_items_and_items_are_found_there() -> None:
    world = make_world(Story(facts={"I live in Oslo.": [("Alice lives in Oslo", "user")]}))
    store = EdenStore(world.memory)
    chat = world.memory.conversation("nova", "s1", ["alice"])
    await world.memory.record_messages(chat, world.messages("I live in Oslo."))
    await world.memory.end_session(chat)

    [formed] = await store.asearch(ALICE, query="Oslo")
    assert formed.key == (await world.memory.admin.list_facts("nova"))[0].id
    await store.aput(ALICE, formed.key, {"content": "Alice lives in Bergen"})  # by its id
    moved = await store.aget(ALICE, formed.key)
    assert moved is not None
    assert moved.value == {"content": "Alice lives in Bergen"}

    await store.aput(ALICE, "job", {"content": "Alice works as a nurse"})
    found = await world.memory.search_facts(chat, ["nurse"])
    assert [r.fact.content for r in found.results] == ["Alice works as a nurse"]
    bob = world.memory.conversation("nova", "s2", ["bob"])
    assert (await world.memory.search_facts(bob, ["nurse"])).results == []


@pytest.mark.parametrize(
    "namespace",
    [("nova",), ("nova", "user"), ("nova", "users", "alice"), ("nova", "agent", "x"), ()],
)
async def test_a_namespace_that_names_no_scope_is_refused(namespace: tuple[str, ...]) -> None:
    store, _ = _store("async")
    with pytest.raises(NamespaceError, match=r'\(agent_id, "user", user_id\)'):
        await store.abatch([_search(namespace)])
    with pytest.raises(InvalidNamespaceError):  # LangGraph's own error, too
        await store.aget(namespace, "k")


def _search(namespace: tuple[str, ...]) -> Any:
    from langgraph.store.base import SearchOp

    return SearchOp(namespace, query="anything")


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ({"text": "Alice"}, InvalidInputError, "content"),
        ({"content": "Alice", "tags": ["x"]}, InvalidInputError, r"only content.*tags"),
        ({"content": "   "}, InvalidInputError, "not stored"),
    ],
)
async def test_a_value_that_is_not_one_fact_is_refused(
    value: dict[str, Any], error: type[Exception], message: str
) -> None:
    store, _ = _store("async")
    with pytest.raises(error, match=message):
        await store.aput(ALICE, "k", value)
    assert await store.asearch(ALICE) == []


async def test_the_same_text_under_a_second_key_is_a_conflict() -> None:
    store, _ = _store("async")
    await store.aput(ALICE, "home", {"content": "Alice lives in Oslo"})
    await store.aput(ALICE, "home", {"content": "Alice lives in Oslo"})  # again: nothing changes
    with pytest.raises(ConflictError, match="under another key"):
        await store.aput(ALICE, "city", {"content": "Alice lives in Oslo"})


async def test_what_eden_memory_cannot_do_is_refused_by_name() -> None:
    store, _ = _store("async")
    with pytest.raises(InvalidInputError, match="filter is not supported"):
        await store.asearch(ALICE, filter={"kind": "home"})
    with pytest.raises(InvalidInputError, match="at most 50 items"):
        await store.asearch(ALICE, query="x", limit=40, offset=20)
    with pytest.raises(NotImplementedError, match="TTL"):
        await store.aput(ALICE, "k", {"content": "Alice"}, ttl=5)
    with pytest.raises(NamespaceError, match="prefix naming the agent"):
        await store.alist_namespaces(suffix=("alice",))


async def test_list_namespaces_lists_one_agents_scopes(mode: str) -> None:
    store, _ = _store(mode)
    await store.aput(ALICE, "home", {"content": "Alice lives in Oslo"})
    await store.aput(BOB, "home", {"content": "Bob lives in Lima"})
    assert await store.alist_namespaces(prefix=("nova",)) == [ALICE, BOB]
    await store.aput(SHARED, "hours", {"content": "The office opens at 9"})
    assert await store.alist_namespaces(prefix=("nova",)) == [SHARED, ALICE, BOB]
    assert await store.alist_namespaces(prefix=("nova",), suffix=("bob",)) == [BOB]
    assert await store.alist_namespaces(prefix=("nova", "user")) == [ALICE, BOB]
    assert await store.alist_namespaces(prefix=("nova",), max_depth=2) == [SHARED, ("nova", "user")]
    assert await store.alist_namespaces(prefix=("nova",), limit=1, offset=1) == [ALICE]
    assert await store.alist_namespaces(prefix=("other",)) == []


@dataclass
class Who:
    user_id: str


@pytest.mark.parametrize("run", ["invoke", "ainvoke"])
async def test_an_agents_own_tool_writes_through_the_runtimes_store(run: str) -> None:
    world = make_world()

    @tool
    def remember(fact: str, runtime: ToolRuntime[Who]) -> str:
        """Remember a fact about the user."""
        assert runtime.store is not None
        runtime.store.put(("nova", "user", runtime.context.user_id), "likes", {"content": fact})
        return "remembered"

    call = {"name": "remember", "args": {"fact": "Alice likes green tea"}, "id": "t1"}
    replies = iter([AIMessage("", tool_calls=[call]), AIMessage("Done.")])
    model = ToolTakingFakeModel(messages=replies)
    agent = create_agent(model, [remember], store=EdenStore(world.memory), context_schema=Who)
    said = HumanMessage("I like green tea.")
    if run == "invoke":  # LangGraph runs the sync tool in a thread of its own either way
        await asyncio.to_thread(lambda: agent.invoke({"messages": [said]}, context=Who("alice")))
    else:
        await agent.ainvoke({"messages": [said]}, context=Who("alice"))

    store = EdenStore(world.memory)
    likes = await store.aget(ALICE, "likes")
    assert likes is not None
    assert likes.value == {"content": "Alice likes green tea"}
    assert await store.asearch(BOB) == []
    alice = world.memory.conversation("nova", "s1", ["alice"])
    found = await world.memory.search_facts(alice, ["tea"])
    assert [r.fact.content for r in found.results] == ["Alice likes green tea"]
