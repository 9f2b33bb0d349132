"""A value worked out from some objects, kept for as long as the same objects come again.

Settings are frozen pydantic models that a host builds once and passes on every call;
hashing one compares it field by field, which costs more than the work a cache would save.
Keyed by the objects' identities instead, with the objects held beside the value, so an id
reused by a new object after the old one died is no hit. Bounded: emptied when full.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityMemo(Generic[V]):
    def __init__(self, most: int = 256) -> None:
        self._most = most
        self._kept: dict[tuple[int, ...], tuple[tuple[object, ...], V]] = {}

    def get(self, objects: tuple[object, ...], make: Callable[[], V]) -> V:
        """The value kept for these very objects, else ``make()``'s, kept."""
        key = tuple(id(o) for o in objects)
        hit = self._kept.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], objects, strict=True)):
            return hit[1]
        value = make()
        if len(self._kept) >= self._most:
            self._kept.clear()
        self._kept[key] = (objects, value)
        return value
