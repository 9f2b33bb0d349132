"""A randomly damaged store file fails with the library's errors, never a raw one (issue 27).

Bits flipped at random, or a whole page overwritten, in a closed store's file: opening it
and every read a host makes either answer or raise an ``EdenMemoryError``. Damage SQLite
finds, and rows that no longer decode, are a ``StoreCorruptedError`` naming the file. Before
the fix, 4 of the 10 seeds of 40 flips raised pydantic's ``ValidationError`` straight to the
caller, and the property test found a ``UnicodeDecodeError`` (SQLite's message quoting a
damaged schema).
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eden_memory.domain.errors import EdenMemoryError, StoreCorruptedError
from tests.unit.adapters.damaged_stores import build, copy_store, read_everything

PAGE = 8192  # the store's page size (``schema.PAGE_BYTES``)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pristine") / "memory.db"
    asyncio.run(build(path))
    return path


@pytest.fixture(scope="module")
def size(pristine: Path) -> int:
    return pristine.stat().st_size


def _damaged_copy(pristine: Path, folder: Path, damage: list[tuple[int, int]]) -> Path:
    """A copy of the store with each (offset, mask) of ``damage`` XORed into its file."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "memory.db"
    copy_store(pristine, path)
    data = bytearray(path.read_bytes())
    for offset, mask in damage:
        data[offset % len(data)] ^= mask
    path.write_bytes(bytes(data))
    return path


def _flips(size: int, seed: int, count: int) -> list[tuple[int, int]]:
    chance = random.Random(seed)
    return [(chance.randrange(size), 1 << chance.randrange(8)) for _ in range(count)]


def _page(size: int, seed: int) -> list[tuple[int, int]]:
    """Every byte of one page replaced by noise (XOR with a nonzero byte)."""
    chance = random.Random(seed)
    start = chance.randrange(size // PAGE) * PAGE
    return [(start + i, chance.randrange(1, 256)) for i in range(PAGE)]


def _assert_only_our_errors(path: Path, outcomes: list[BaseException | None]) -> None:
    for outcome in outcomes:
        if outcome is None:
            continue
        assert isinstance(outcome, EdenMemoryError), repr(outcome)
        if isinstance(outcome, StoreCorruptedError):
            assert str(path) in str(outcome)
        assert "green tea" not in str(outcome)  # no stored text is quoted


@pytest.mark.parametrize("count", [3, 40])
@pytest.mark.parametrize("seed", range(10))
async def test_flipped_bits_answer_or_raise_our_errors(
    pristine: Path, size: int, tmp_path: Path, seed: int, count: int
) -> None:
    damage = _flips(size, seed, count)
    path = _damaged_copy(pristine, tmp_path, damage)
    _assert_only_our_errors(path, await read_everything(path))


@pytest.mark.parametrize("seed", range(6))
async def test_an_overwritten_page_answers_or_raises_our_errors(
    pristine: Path, size: int, tmp_path: Path, seed: int
) -> None:
    path = _damaged_copy(pristine, tmp_path, _page(size, seed))
    outcomes = await read_everything(path)
    _assert_only_our_errors(path, outcomes)


async def test_at_least_some_damage_is_named_as_such(
    pristine: Path, size: int, tmp_path: Path
) -> None:
    """The flips reach rows, not only pages SQLite checks: some reads say the store is damaged."""
    named = 0
    for seed in range(10):
        damage = _flips(size, seed, 40)
        path = _damaged_copy(pristine, tmp_path / str(seed), damage)
        named += any(isinstance(o, StoreCorruptedError) for o in await read_everything(path))
    assert named >= 5


@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    damage=st.lists(
        st.tuples(st.integers(min_value=0, max_value=1 << 24), st.integers(1, 255)),
        min_size=1,
        max_size=24,
    )
)
def test_any_damage_answers_or_raises_our_errors(
    pristine: Path, tmp_path: Path, damage: list[tuple[int, int]]
) -> None:
    path = _damaged_copy(pristine, Path(tempfile.mkdtemp(dir=tmp_path)), damage)
    _assert_only_our_errors(path, asyncio.run(read_everything(path)))
