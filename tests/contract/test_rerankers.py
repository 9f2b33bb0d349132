"""The reranker contract, run against the fake, the memory's LLM (scripted) and a cross-encoder.

The cross-encoder is a tiny randomly initialised BERT saved to a folder with MiniLM's
tokenizer: the adapter's loading (offline, from a folder), batching and shape are real; its
judgement is not, so it is held to the shape of its answer only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from eden_memory.adapters.llms.scripted import ScriptedLLM
from eden_memory.adapters.rerankers.cross_encoder import CrossEncoderReranker
from eden_memory.adapters.rerankers.fake import WordOverlapReranker
from eden_memory.application.calls import ModelRouter
from eden_memory.application.search.reranking import ModelReranker
from eden_memory.domain.settings import ModelSettings
from eden_memory.ports.llm import LLMRequest
from eden_memory.ports.reranker import Reranker
from tests.contract.reranker_contract import JudgingRerankerContract, RerankerContract
from tests.tiny_cross_encoder import save_tiny_cross_encoder

LINE = re.compile(r"^(\d+)\. (.*)$", re.MULTILINE)
WORD = re.compile(r"\w+")


def choose_by_shared_words(request: LLMRequest, _schema: object) -> dict[str, list[int]]:
    """A scripted judge that reads the prompt as a model would: the numbered lines sharing
    the most words with the question, best first (so the numbering is what is tested)."""
    prompt = request.prompt
    asked = [line for line in prompt.splitlines() if line.startswith("Question: ")]
    question = {w for line in asked for w in WORD.findall(line.lower())} - {"question"}
    shared = [
        (len(question & set(WORD.findall(text.lower()))), int(n))
        for n, text in LINE.findall(prompt)
    ]
    return {"relevant": [n for count, n in sorted(shared, key=lambda x: (-x[0], x[1])) if count]}


class TestWordOverlapReranker(JudgingRerankerContract):
    @pytest.fixture
    def reranker(self) -> Reranker:
        return WordOverlapReranker()


class TestModelReranker(JudgingRerankerContract):
    @pytest.fixture
    def reranker(self) -> Reranker:
        llm = ScriptedLLM(by_purpose={"rerank": choose_by_shared_words})
        return ModelReranker(ModelRouter.single(llm, ModelSettings()))


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_cross_encoder(tmp_path_factory.mktemp("cross-encoder"))


class TestCrossEncoderReranker(RerankerContract):
    @pytest.fixture
    def reranker(self, tiny_cross_encoder: Path) -> Reranker:
        return CrossEncoderReranker(tiny_cross_encoder)
