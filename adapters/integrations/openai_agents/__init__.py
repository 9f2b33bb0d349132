"""Memory for an OpenAI Agents SDK agent (extra ``openai-agents``).

``AgentsMemory(memory, conversation).attach(agent)`` is a copy of the agent with its own
instructions (a string or a function) followed by the memory context, read at every model
call, and the ``search_facts`` tool; ``await memory_for.record(result)`` records the run's
turn after it::

    memory_for = AgentsMemory(memory, chat)
    result = await Runner.run(memory_for.attach(agent), "Where do I live?")
    await memory_for.record(result)

The memory's own ``search_facts`` calls and results are not recorded (memory read back
would be formed again from its echo).
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

__all__ = ["AgentsMemory", "MemoryInstructions", "said", "turn_input"]
