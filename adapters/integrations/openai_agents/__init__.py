"""Memory for an OpenAI Agents SDK agent (extra ``openai-agents``).

``AgentsMemory(memory, conversation).attach(agent)`` is a copy of the agent with its own
instructions (a string or a function) followed by the memory context, read at every model
call, and the ``search_facts`` tool. ``EdenSession(memory, conversation)`` is an SDK
``Session``: the run's items are recorded as the run adds them, and kept for the next run::

    memory_for = AgentsMemory(memory, chat)
    session = EdenSession(memory, chat, SQLiteSession(chat.session_id, "history.db"))
    result = await Runner.run(memory_for.attach(agent), "Where do I live?", session=session)

Without ``EdenSession`` (the SDK's own session, or none), ``await memory_for.record(result)``
records the run's turn after it. The memory's own ``search_facts`` calls and results are not
recorded (memory read back would be formed again from its echo).
"""

from __future__ import annotations

from eden_memory.domain.errors import MissingExtraError

try:
    import agents  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("the OpenAI Agents integration", "openai-agents", "agents") from None

from eden_memory.adapters.integrations.openai_agents.agent import (
    AgentsMemory,
    MemoryInstructions,
)
from eden_memory.adapters.integrations.openai_agents.items import said, turn_input
from eden_memory.adapters.integrations.openai_agents.session import EdenSession

__all__ = ["AgentsMemory", "EdenSession", "MemoryInstructions", "said", "turn_input"]
