"""Deterministic stand-ins for every port, for a host's own tests.

They are the same fakes eden-memory tests itself with, held to the same contract suites as
the real adapters, so a host test that passes on them exercises real behaviour::

    from eden_memory.testing import FakeClock, FakeEmbedder, ScriptedLLM, memory_stores
"""

from eden_memory.adapters.clocks import FakeClock, SystemClock
from eden_memory.adapters.embedders.fake import FakeEmbedder
from eden_memory.adapters.embedders.keyword import KeywordEmbedder
from eden_memory.adapters.llms.scripted import ScriptedLLM, ScriptExhaustedError
from eden_memory.adapters.rerankers.fake import WordOverlapReranker
from eden_memory.adapters.stores.memory import fail_next, memory_stores
from eden_memory.demo.lookup_model import LookupModel

__all__ = [
    "FakeClock",
    "FakeEmbedder",
    "KeywordEmbedder",
    "LookupModel",
    "ScriptExhaustedError",
    "ScriptedLLM",
    "SystemClock",
    "WordOverlapReranker",
    "fail_next",
    "memory_stores",
]
