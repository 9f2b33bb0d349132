"""The pipeline end to end through a real model: llama-cpp-python serving Qwen2.5-Coder-1.5B.

Runs when a server is there: ``EDEN_MEMORY_LOCAL_LLM_URL`` names a running one
(``http://127.0.0.1:8080/v1``), or ``EDEN_MEMORY_LOCAL_LLM_MODEL`` (the assembled GGUF) and
``EDEN_MEMORY_LOCAL_LLM_PYTHON`` (an interpreter with llama-cpp-python[server]) let the test
start one on a free port. ``eden-memory local-llm --prepare`` prints the model's path; the
one command that prepares and runs all of it is in docs/adapters.md. Nothing here is
checked against the model's wording: only that its answers parse, form memory, lose no
message and stay within the call budget.
"""

from __future__ import annotations

import os
import socket
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from eden_memory import EdenMemoryConfig, open_memory
from eden_memory.adapters.llms.openai import OpenAILLM
from eden_memory.domain.errors import InvalidLLMOutputError
from eden_memory.domain.models import Message, Role
from eden_memory.domain.scopes import AgentMemoryConfig
from eden_memory.local_llm import pins
from eden_memory.local_llm.server import ServerOptions, start, stop
from eden_memory.ports.llm import LLMRequest, LLMResult, T

URL = os.environ.get("EDEN_MEMORY_LOCAL_LLM_URL")
MODEL = os.environ.get("EDEN_MEMORY_LOCAL_LLM_MODEL")
PYTHON = os.environ.get("EDEN_MEMORY_LOCAL_LLM_PYTHON")

pytestmark = [
    pytest.mark.local_llm,
    pytest.mark.skipif(
        not URL and not (MODEL and PYTHON),
        reason="no local model server: set EDEN_MEMORY_LOCAL_LLM_URL, or "
        "EDEN_MEMORY_LOCAL_LLM_MODEL and EDEN_MEMORY_LOCAL_LLM_PYTHON (eden-memory local-llm)",
    ),
]

TURNS = (
    ("user", "Hi, I'm Maya. I moved to Porto last month for a job at a robotics startup."),
    ("agent", "Welcome to Porto, Maya! What do you work on there?"),
    ("user", "Motor controllers for warehouse robots. Please keep your answers short."),
    ("agent", "Understood: short answers from now on."),
    ("user", "My sister Ines visits on 14 March and she is vegetarian."),
    ("agent", "I can suggest vegetarian restaurants near the river for her visit."),
)
# Extraction, dedup (when there are candidates), reflections, and one consolidation per
# scope buffer (agent, user, session) at most: the most a session's end may cost.
CALL_BUDGET = 6


class Recorder:
    """Keeps every answer and every unusable one the model gave."""

    def __init__(self, inner: OpenAILLM) -> None:
        self.inner = inner
        self.models: list[str] = []  # the model field of every answer
        self.invalid: list[str] = []

    async def generate(self, request: LLMRequest, schema: type[T]) -> LLMResult[T]:
        try:
            result = await self.inner.generate(request, schema)
        except InvalidLLMOutputError as error:
            self.invalid.append(f"{request.purpose}: {error}")
            raise
        self.models.append(result.model)
        return result


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    if URL:
        yield URL
        return
    options = ServerOptions(port=free_port())
    process = start(Path(str(PYTHON)), Path(str(MODEL)), options)
    try:
        yield options.base_url
    finally:
        stop(process)


@pytest.fixture
async def recorder(server_url: str) -> AsyncIterator[Recorder]:
    llm = OpenAILLM(
        api="chat",
        schema_mode="json_object",
        api_key="dummy",
        base_url=server_url,
        timeout_seconds=600,
        max_retries=0,
    )
    try:
        yield Recorder(llm)
    finally:
        await llm.aclose()


async def test_a_session_forms_facts_and_reflections_through_the_real_model(
    recorder: Recorder,
) -> None:
    # llama-cpp-python's server names in ``model`` whatever model the request named.
    names = {role: pins.MODEL_NAME for role in ("fast", "reflection_free", "reflection_premium")}
    config = EdenMemoryConfig(store="memory", embedder="fake", memory={"models": names})
    agent = AgentMemoryConfig("guide")
    start_at = datetime(2026, 2, 20, 9, 0, tzinfo=UTC)
    messages = [
        Message(
            id=f"m{i}",
            role=Role(role),
            text=text,
            sent_at=start_at + timedelta(minutes=i),
            author_id="maya" if role == "user" else "guide",
        )
        for i, (role, text) in enumerate(TURNS)
    ]
    async with open_memory(config, llm=recorder) as memory:
        conv = memory.conversation(agent, "porto-1", ["maya"])
        await memory.start_session(conv)
        await memory.record_messages(conv, messages, background=False)
        report = await memory.end_session(conv)
        facts = await memory.admin.list_facts("guide", limit=100)

    assert report is not None
    assert recorder.invalid == []  # every answer parsed into its schema
    assert set(recorder.models) == {pins.MODEL_NAME}
    assert report.messages == len(TURNS)  # nothing lost: every message formed
    assert facts, "no fact formed"
    assert all(set(f.source_message_ids) <= {m.id for m in messages} for f in facts)
    assert sum(report.reflections.values()) + len(report.consolidations) > 0
    assert report.llm_calls <= CALL_BUDGET
    print(
        f"\nlocal model: {report.llm_calls} calls, {report.usage.input_tokens} tokens in, "
        f"{report.usage.output_tokens} out, {report.stage_seconds.get('total', 0):.1f} s; "
        f"facts: {[f.content for f in facts]}; reflections: {report.reflections}"
    )
