"""docs/configuration.md lists every setting, with its variable and its real default.

The table rows are parsed and compared with ``EdenMemoryConfig`` and the nested
``MemorySettings`` models, both ways, so the document cannot drift from the code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from types import UnionType
from typing import Annotated, Literal, Union, get_args, get_origin

from annotated_types import Ge, Gt, Le
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from eden_memory.config import EdenMemoryConfig
from eden_memory.domain.bounds import MAX_COUNT

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


def stated_range(field: FieldInfo) -> str | None:
    """A numeric setting's type as the document writes it: ``int 0–2^63−1``, ``float > 0,
    ≤ 876,600`` (None for a setting that is not a number)."""
    parts = [*_opened(field.annotation), *field.metadata]
    kind = next((k for k in (int, float) if k in parts), None)
    if kind is None:
        return None
    low = next((f"{_number(p.ge)}–" for p in parts if isinstance(p, Ge)), None)
    low = low or next((f"> {_number(p.gt)}, ≤ " for p in parts if isinstance(p, Gt)), "")
    high = next((_number(p.le) for p in parts if isinstance(p, Le)), "unbounded")
    return f"{kind.__name__} {low}{high}"


def _opened(annotation: object) -> Iterator[object]:
    if isinstance(annotation, FieldInfo):  # ``Field(...)`` inside a union
        yield from annotation.metadata
    elif get_origin(annotation) is Annotated:
        base, *metadata = get_args(annotation)
        for item in metadata:
            yield from _opened(item)
        yield from _opened(base)
    elif get_origin(annotation) in (Union, UnionType):
        for arg in get_args(annotation):
            yield from _opened(arg)
    else:
        yield annotation


def _number(value: object) -> str:
    if value == MAX_COUNT:
        return "2^63−1"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:g}"
    return f"{int(value):,}" if isinstance(value, int | float) else str(value)


def numeric_fields(
    model: type[BaseModel], prefix: str = "EDEN_MEMORY_"
) -> Iterator[tuple[str, str]]:
    """(variable, stated range) of every numeric setting, nested models walked."""
    for name, field in model.model_fields.items():
        nested = [
            p for p in _opened(field.annotation) if isinstance(p, type) and issubclass(p, BaseModel)
        ]
        for inner in nested:
            yield from numeric_fields(inner, f"{prefix}{name.upper()}__")
        stated = stated_range(field)
        if stated is not None:
            yield f"{prefix}{name.upper()}", stated


def test_every_number_is_documented_with_the_range_it_accepts() -> None:
    # Issue 40, item 5: every number is bounded where it is declared; the page says how.
    types = dict(
        re.findall(
            r"^\| `(EDEN_MEMORY_[A-Z0-9_]+)` \| ((?:[^|\\]|\\\|)*) \|",
            DOC.read_text(),
            re.MULTILINE,
        )
    )
    wrong = {
        name: (types[name], stated)
        for name, stated in numeric_fields(EdenMemoryConfig)
        if types[name].split(" \\|")[0] != stated  # a choice besides: `default`
    }
    assert not wrong, f"documented range differs from the code: {wrong}"
