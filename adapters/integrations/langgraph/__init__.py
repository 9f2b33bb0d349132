"""Memory for LangGraph (extra ``langgraph``): a ``BaseStore``, and the pieces of a graph.

``EdenStore(memory)`` is LangGraph's long-term memory interface over eden-memory's facts, for
``create_agent(store=...)``, ``graph.compile(store=...)`` or direct use, sync and async::

    store = EdenStore(memory)
    store.put(("support-bot", "user", "alice"), "home", {"content": "Alice lives in Oslo"})
    hits = store.search(("support-bot", "user", "alice"), query="where does Alice live")

Namespaces are ``(agent_id, "user", user_id)`` (one user's facts with an agent) and
``(agent_id, "agent")`` (the agent's facts, shared by its users); ``namespaces.py`` says why.

LangChain's ``create_agent`` takes the context, ``search_facts`` and recording as one
middleware (``langchain_agent.MemoryMiddleware``) that reads the user and session of each
invocation. ``GraphMemory(memory, conversation)`` gives a graph of your own the same three
pieces for one conversation::

    memory_for = GraphMemory(memory, chat)
    messages = await memory_for.prompt.ainvoke(state)   # in the model node
    graph.add_node("tools", ToolNode([*tools, memory_for.tool()]))
    graph.add_node("remember", memory_for.record)   # or: await memory_for.record(state)

The memory is async; sync calls (``invoke``, ``store.put``) hop to the event loop it runs on
(``bridge.LoopBridge``); a host with no loop of its own opens it on a ``MemoryThread``.
"""

from __future__ import annotations

from eden_memory.domain.errors import MissingExtraError

try:
    import langchain_core  # noqa: F401
    import langgraph.store.base  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("the LangGraph integration", "langgraph", "langchain_core") from None

from eden_memory.adapters.integrations.langgraph.bridge import LoopBridge, MemoryThread
from eden_memory.adapters.integrations.langgraph.graph import GraphMemory, messages_of
from eden_memory.adapters.integrations.langgraph.invocation import conversation_of
from eden_memory.adapters.integrations.langgraph.namespaces import NamespaceError, Place
from eden_memory.adapters.integrations.langgraph.store import EdenStore

__all__ = [
    "EdenStore",
    "GraphMemory",
    "LoopBridge",
    "MemoryThread",
    "NamespaceError",
    "Place",
    "conversation_of",
    "messages_of",
]
