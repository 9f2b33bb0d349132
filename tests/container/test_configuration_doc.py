"""docs/configuration.md lists every setting, with its variable and its real default.

The table rows are parsed and compared with ``EdenMemoryConfig`` and the nested
``MemorySettings`` models, both ways, so the document cannot drift from the code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Literal, get_args, get_origin

from pydantic import BaseModel

from eden_memory.config import EdenMemoryConfig

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
# | `VARIABLE` | type (may hold escaped \| ) | default | meaning |
ROW = re.compile(r"^\| `(EDEN_MEMORY_[A-Z0-9_]+)` \|(?:[^|\\]|\\\|)*\| ([^|]*) \|", re.MULTILINE)


def settings_of(model: BaseModel, prefix: str = "EDEN_MEMORY_") -> Iterator[tuple[str, object]]:
    """(variable, default) for every leaf field, nested models walked with ``__``."""
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            yield from settings_of(value, f"{prefix}{name.upper()}__")
        else:
            yield f"{prefix}{name.upper()}", value


def shown(value: object) -> str:
    """A default as the document writes it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, Enum):
        return f"`{value.value}`"
    return f"`{value}`"


def documented() -> dict[str, str]:
    return {name: default.strip() for name, default in ROW.findall(DOC.read_text())}


def test_every_setting_is_documented_with_its_default() -> None:
    rows = documented()
    code = dict(settings_of(EdenMemoryConfig.model_construct()))
    missing = sorted(set(code) - set(rows))
    assert not missing, f"not in docs/configuration.md: {missing}"
    wrong = {name: (rows[name], shown(v)) for name, v in code.items() if rows[name] != shown(v)}
    assert not wrong, f"documented default differs from the code: {wrong}"


def test_the_document_names_no_setting_that_does_not_exist() -> None:
    code = dict(settings_of(EdenMemoryConfig.model_construct()))
    assert not sorted(set(documented()) - set(code))


def test_every_choice_of_an_adapter_setting_is_documented() -> None:
    types = dict(
        re.findall(
            r"^\| `(EDEN_MEMORY_[A-Z0-9_]+)` \| ((?:[^|\\]|\\\|)*) \|",
            DOC.read_text(),
            re.MULTILINE,
        )
    )
    for name, field in EdenMemoryConfig.model_fields.items():
        if get_origin(field.annotation) is Literal:
            listed = re.findall(r"`([^`]+)`", types[f"EDEN_MEMORY_{name.upper()}"])
            assert listed == list(get_args(field.annotation)), name
