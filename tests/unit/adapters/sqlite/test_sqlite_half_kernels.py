"""SimSIMD's float16 kernels that add in half precision are switched off, on any CPU.

Each CPU is played by a fake SimSIMD whose dot product adds in float16 while given
capabilities are on; the installed SimSIMD is checked by switching its capabilities here,
so no outcome depends on the machine that runs the tests.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.adapters.stores.sqlite.vectors.half_kernels import HALF_ADDERS
from eden_memory.adapters.stores.sqlite.vectors.scan import (
    HalfScan,
    SingleScan,
    choose,
    half_scan,
    sound,
)
from eden_memory.domain.errors import ConfigurationError
from tests.unit.adapters.sqlite.test_sqlite_scan import SPACE16, VIEWER
from tests.unit.adapters.sqlite.test_sqlite_vector_index import fact

# SimSIMD 6.5's capability names, and those a few CPUs report.
NAMES = ["serial", "neon", "sve", "neon_f16", "sve_f16", "neon_bf16", "sve_bf16", "neon_i8"]
NAMES += ["sve_i8", "haswell", "skylake", "ice", "genoa", "sapphire", "turin", "sierra"]
HASWELL = frozenset({"serial", "haswell"})
SAPPHIRE_RAPIDS = frozenset({"serial", "haswell", "skylake", "ice", "genoa", "sapphire"})
GRAVITON3 = frozenset({"serial", "neon", "neon_f16", "neon_bf16", "neon_i8", "sve", "sve_f16"})


def fake_simsimd(cpu: frozenset[str], half_while: set[str]) -> ModuleType:
    """A SimSIMD on ``cpu`` whose dot product adds in float16 while any of ``half_while`` is on."""
    on = {name: name in cpu for name in NAMES}

    def cdist(a: np.ndarray, b: np.ndarray, **_: object) -> np.ndarray:
        products = a[:, None, :].astype(np.float32) * b[None, :, :].astype(np.float32)
        if any(on[name] for name in half_while):
            halves = np.cumsum(products.astype(np.float16), axis=-1, dtype=np.float16)
            return halves[..., -1].astype(np.float32)
        wide: np.ndarray = products.sum(axis=-1, dtype=np.float32)
        return wide

    def switch(value: bool) -> object:
        def set_capability(name: str, /) -> None:
            if name not in on:
                raise ValueError("Unknown capability")
            if name == "serial":
                raise ValueError("Can't change the serial functionality")
            on[name] = value

        return set_capability

    simd = ModuleType("simsimd")
    vars(simd).update(
        cdist=cdist,
        get_capabilities=lambda: dict(on),
        enable_capability=switch(True),
        disable_capability=switch(False),
    )
    return simd


def enabled(simd: ModuleType) -> set[str]:
    return {name for name, on in simd.get_capabilities().items() if on}


def install(monkeypatch: pytest.MonkeyPatch, simd: ModuleType) -> ModuleType:
    monkeypatch.setitem(sys.modules, "simsimd", simd)
    return simd


def test_the_soundness_check_catches_a_kernel_that_adds_in_half_precision() -> None:
    simd = fake_simsimd(SAPPHIRE_RAPIDS, half_while={"sapphire"})
    assert not sound(HalfScan(simd))
    simd.disable_capability("sapphire")
    assert sound(HalfScan(simd))


@pytest.mark.parametrize(
    ("cpu", "half_while", "switched_off"),
    [
        (SAPPHIRE_RAPIDS, {"sapphire"}, {"sapphire"}),
        (GRAVITON3, {"sve_f16"}, {"sve_f16"}),
        (GRAVITON3, {"sve"}, {"sve_f16", "sve"}),  # SimSIMD 6.2 picks the SVE kernel on `sve`
        (SAPPHIRE_RAPIDS, set(), set()),  # a sound kernel is left alone
        (HASWELL, set(), set()),
    ],
    ids=["avx512-fp16", "sve-f16", "sve", "sound-sapphire", "haswell"],
)
def test_half_precision_gets_a_sound_kernel_by_switching_off_only_the_half_adders(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    cpu: frozenset[str],
    half_while: set[str],
    switched_off: set[str],
) -> None:
    simd = install(monkeypatch, fake_simsimd(cpu, half_while))
    with caplog.at_level(logging.INFO, logger="eden_memory"):
        chosen = choose("half")
    assert isinstance(chosen, HalfScan)
    assert sound(chosen)
    assert enabled(simd) == cpu - switched_off
    assert all(name in caplog.text for name in switched_off)
    assert isinstance(half_scan(), HalfScan)  # the next store finds it sound as it is
    assert isinstance(choose("auto"), HalfScan)
    assert enabled(simd) == cpu - switched_off


def test_a_kernel_no_switch_makes_sound_falls_back_to_single_and_leaves_simsimd_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    simd = install(monkeypatch, fake_simsimd(SAPPHIRE_RAPIDS | GRAVITON3, half_while={"serial"}))
    assert isinstance(choose("auto"), SingleScan)
    with pytest.raises(ConfigurationError, match="vector_precision='single'"):
        choose("half")
    assert enabled(simd) == SAPPHIRE_RAPIDS | GRAVITON3


def test_a_kernel_that_fails_is_a_configuration_error_and_leaves_simsimd_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    simd = install(monkeypatch, fake_simsimd(SAPPHIRE_RAPIDS, half_while={"sapphire"}))
    real = simd.cdist

    def crashes_below_sapphire(a: np.ndarray, b: np.ndarray, **kw: object) -> np.ndarray:
        if not simd.get_capabilities()["sapphire"]:
            raise RuntimeError("illegal instruction")
        result: np.ndarray = real(a, b, **kw)
        return result

    vars(simd)["cdist"] = crashes_below_sapphire
    with pytest.raises(ConfigurationError, match="illegal instruction"):
        choose("half")
    assert isinstance(choose("auto"), SingleScan)
    assert enabled(simd) == SAPPHIRE_RAPIDS


@pytest.fixture
def installed_simsimd() -> Iterator[ModuleType]:
    """The real SimSIMD, its capabilities restored afterwards (only ever re-enabling those on)."""
    simd = pytest.importorskip("simsimd")
    before = enabled(simd)
    yield simd
    for name in before - {"serial"}:
        simd.enable_capability(name)


def test_every_kernel_of_the_installed_simsimd_but_the_half_adders_is_sound(
    installed_simsimd: ModuleType,
) -> None:
    """Keeps the list of half adders honest on whatever CPU runs it: each capability this
    CPU has, alone above the serial code, must give a kernel that widens before it adds."""
    simd = installed_simsimd
    cpu = enabled(simd)
    for keep in sorted(cpu - set(chain(*HALF_ADDERS))):
        for name in cpu - {keep, "serial"}:
            simd.disable_capability(name)
        assert sound(HalfScan(simd)), keep
        for name in cpu - {keep, "serial"}:
            simd.enable_capability(name)


async def test_a_store_on_an_avx512_fp16_cpu_searches_in_half_precision_like_single(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    simd = install(monkeypatch, fake_simsimd(SAPPHIRE_RAPIDS, half_while={"sapphire"}))
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((40, 16)).tolist()
    query = rng.standard_normal(16).tolist()
    path = tmp_path / "memory.db"
    async with (
        await open_sqlite(path, vector_precision="half") as halved,
        await open_sqlite(path, vector_precision="single") as single,
    ):
        await halved.facts.add_facts([fact(f"f{n}", None, SPACE16) for n in range(40)], vectors)
        got = await halved.ranking.semantic_ranking(query, VIEWER, 10, space=SPACE16)
        want = await single.ranking.semantic_ranking(query, VIEWER, 10, space=SPACE16)
    assert [r.id for r in got] == [r.id for r in want]
    assert [r.score for r in got] == pytest.approx([r.score for r in want], abs=1e-6)
    assert not simd.get_capabilities()["sapphire"]
