"""Messages as hosts have them, turned into ``Message`` values.

``to_messages`` takes a list of OpenAI chat messages (content parts, ``tool_calls``),
OpenAI Responses items (``message``, ``function_call``, ``function_call_output``),
Anthropic messages (content blocks, ``tool_use``/``tool_result``), Gemini contents
(``user``/``model`` parts) or plain dicts, SDK objects or dicts, in any mix:
``assistant`` and ``model`` become the agent, a display name (``name``, ``author_name``)
is kept for the prompts, and a bad batch raises one error naming every bad field.
``MemoryService.record_messages`` calls it, so a host passes what its SDK gave it.
"""

from eden_memory.application.messages.convert import HostMessage, to_messages

__all__ = ["HostMessage", "to_messages"]
