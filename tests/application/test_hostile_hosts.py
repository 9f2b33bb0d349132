"""A hostile host, through the public face, never corrupts a store.

Examples a property test found (each reduced to the smallest input that failed), run on
every store.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError
from eden_memory.testing import FakeClock, KeywordEmbedder, ScriptedLLM
from tests.application.stores import StoreMaker
from tests.application.story import START, Story

HOST_AGENT = "nova"
HEADER = {
    "kind": "header",
    "format": "eden-memory-export",
    "version": 1,
    "agent_id": HOST_AGENT,
    "exported_at": "2026-03-02T09:00:00+00:00",
    "embedding": {"model": "keyword-hash", "dimension": 256},
}


def _service(stores: Any) -> MemoryService:
    return MemoryService(stores, KeywordEmbedder(), ScriptedLLM(Story()), FakeClock(START))


def _fact_line(vector: object) -> str:
    fact = {
        "id": "f1",
        "content": "Alice lives in Oslo",
        "scope": "user",
        "agent_id": HOST_AGENT,
        "user_id": "alice",
        "formed_at": "2026-03-01T09:00:00Z",
        "created_at": "2026-03-02T09:00:00Z",
        "updated_at": "2026-03-02T09:00:00Z",
        "embedding_model": "keyword-hash",
        "embedding_dim": 256,
    }
    return json.dumps({"kind": "fact", "fact": fact, "vector": vector})


async def test_an_import_line_nested_too_deep_is_invalid_input(make_store: StoreMaker) -> None:
    memory = _service(await make_store())
    with pytest.raises(InvalidInputError, match="line 1 of the import is not valid"):
        await memory.admin.import_lines(["[" * 5000])
