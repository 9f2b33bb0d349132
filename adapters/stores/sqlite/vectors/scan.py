"""How the in-memory vectors are held and scored: single precision, or half with a bound.

A scan over 100k vectors of 384 floats reads 150 MB; on these CPUs reading memory, not
arithmetic, sets its pace. ``HalfScan`` keeps the vectors as float16 (half the bytes, half
the memory) and scores them with SimSIMD's kernels, which widen to float32 before they
multiply and add. Its scores are then *approximate*, off by at most ``error(dim)`` from the
float32 cosine, and the index uses that bound to stay exact: everything scoring within twice
the bound of the k-th best is re-scored in float32 from the fact rows (``index``).

Bound on ``|approx - exact|`` for unit vectors ``q`` and ``v`` of dimension ``d``: rounding
to float16 moves each component by at most ``2^-11`` of itself (normal numbers) or ``2^-25``
(subnormal), so by Cauchy-Schwarz each of ``q`` and ``v`` contributes at most
``2^-11 + sqrt(d) * 2^-25`` times the other's norm (at most ``1 + 2^-11``). A kernel that
multiplies in half precision adds ``2^-11`` per unit of ``sum |q_i v_i|`` (at most ~1) plus
``2^-25`` per product; summing ``d`` products in float32 adds at most ``d * 2^-24`` of
``sum |q_i v_i|``. A kernel that *adds* in half precision would break the bound, so one is
only used after ``sound()`` has shown it keeps float32 accuracy on sums built to expose that;
SimSIMD's AVX512-FP16 and SVE kernels do add in half, and ``half_kernels`` switches them off
(for the whole process) so that the next kernel down, which widens, is used.
"""

from __future__ import annotations

import math
import os
import threading
from importlib import import_module
from types import ModuleType
from typing import Literal, Protocol

import numpy as np

from eden_memory.adapters.stores.sqlite.vectors.half_kernels import switch_to_sound
from eden_memory.adapters.stores.sqlite.vectors.partition import Matrix, Rows
from eden_memory.domain.errors import ConfigurationError, MissingExtraError

Precision = Literal["auto", "half", "single"]

_HALF_ULP = 2.0**-11  # float16 relative rounding error
_HALF_SUBNORMAL = 2.0**-25  # float16 absolute rounding error below its normal range
_SINGLE_ULP = 2.0**-24
_CORES = os.cpu_count() or 1
# Below this many bytes of vectors a scan runs on one thread. Measured on a 2-core machine
# with both cores busy (docs/record/decisions/stores.md, "Threads"): a second thread made
# a 10k-row float16 scan 20x slower (12 ms instead of 0.6) and a float32 BLAS one 8x, and
# still cost at 400k float16 rows (50 ms instead of 42).
PARALLEL_FROM_BYTES = 64 << 20
MAX_SCAN_THREADS = 4


def scan_threads(nbytes: int, cores: int) -> int:
    """Threads for a search that scans ``nbytes`` in all: one for small scans; for large ones
    at most half the cores, so the event loop, the SQLite workers and the host keep the rest
    (a 2-core machine always scans on one). Decided by the search, not by each partition it
    scans: a user's 61 MB partition beside the agent's 15 MB one ran on one thread each."""
    if nbytes < PARALLEL_FROM_BYTES:
        return 1
    return max(1, min(MAX_SCAN_THREADS, cores // 2))


class VectorScan(Protocol):
    """Scores unit-length rows against a unit-length query."""

    dtype: type[np.floating]  # how the rows are held

    def scores(self, rows: Rows, query: Matrix, search_bytes: int = 0) -> Matrix:
        """``search_bytes``: the bytes the whole search scans (all its partitions), which
        decide the threads; 0 for ``rows`` alone."""
        ...

    def error(self, dim: int) -> float:
        """The most a score can differ from the float32 cosine (0: it is the cosine)."""
        ...


class SingleScan:
    """float32 rows and BLAS: the scores are the cosines.

    BLAS would use every core on every product. Where ``scan_threads`` says one thread,
    numpy's own ``einsum`` loop scores instead (as fast as BLAS on one thread, measured),
    so no process-wide BLAS setting is touched; larger scans use BLAS as configured.
    """

    dtype: type[np.floating] = np.float32

    def __init__(self, cores: int = _CORES) -> None:
        self._cores = cores

    def scores(self, rows: Rows, query: Matrix, search_bytes: int = 0) -> Matrix:
        if scan_threads(search_bytes or rows.nbytes, self._cores) == 1:
            alone: Matrix = np.einsum("ij,j->i", rows, query)
            return alone
        out: Matrix = rows @ query
        return out

    def error(self, dim: int) -> float:
        return 0.0


class HalfScan:
    """float16 rows scored by SimSIMD: half the memory read, a bounded error.

    SimSIMD spreads a scan over the cores with OpenMP. A thread that started an OpenMP pool
    and then forks deadlocks in the child if it asks that pool for threads again (the pool's
    workers were not copied); ``_after_fork_in_child`` makes such a thread scan alone. Other
    threads of the child start pools of their own, which works; the store scans on its own
    worker thread, so a forked child that opens a store scans on all its cores.
    """

    dtype: type[np.floating] = np.float16

    def __init__(self, simd: ModuleType, cores: int = _CORES) -> None:
        self._simd = simd
        self._cores = cores

    def scores(self, rows: Rows, query: Matrix, search_bytes: int = 0) -> Matrix:
        me = threading.get_ident()
        wanted = scan_threads(search_bytes or rows.nbytes, self._cores)
        threads = 1 if me == _OPENMP.orphaned else wanted
        if threads > 1:
            _OPENMP.started_on.add(me)
        got = self._simd.cdist(
            query.astype(np.float16)[None, :],
            rows,
            metric="dot",
            threads=threads,
            out_dtype="float32",
        )
        out: Matrix = np.asarray(got, dtype=np.float32)[0]
        return out

    def error(self, dim: int) -> float:
        rounding = _HALF_ULP + math.sqrt(dim) * _HALF_SUBNORMAL
        inputs = 2 * rounding * (1 + _HALF_ULP)
        products = (_HALF_ULP + dim * _HALF_SUBNORMAL) * (1 + _HALF_ULP) ** 2
        sums = dim * _SINGLE_ULP * (1 + _HALF_ULP) ** 2 * 1.01
        # The float32 cosine the candidates are re-scored with has its own rounding.
        return inputs + products + sums + dim * _SINGLE_ULP


class _OpenMPState:
    def __init__(self) -> None:
        self.started_on: set[int] = set()  # threads that have run a multi-threaded scan
        self.orphaned: int | None = None  # in a forked child: the forking thread, if one


_OPENMP = _OpenMPState()


def _after_fork_in_child() -> None:
    me = threading.get_ident()
    _OPENMP.orphaned = me if me in _OPENMP.started_on else None
    _OPENMP.started_on = set()


os.register_at_fork(after_in_child=_after_fork_in_child)


def sound(scan: VectorScan) -> bool:
    """Whether the kernel keeps float32 accuracy on sums a half-precision adder gets wrong.

    The inputs are exact in float16 and their products exact in float32, so a kernel that
    widens before it adds is off by float32 rounding alone, while one that adds in float16
    loses ~1e-3 on long sums, and drops tiny terms after a large one altogether.
    """
    dim = 1024
    rng = np.random.default_rng(20260601)
    rows = rng.uniform(-1, 1, (8, dim)).astype(np.float16)
    rows[0, 0], rows[0, 1:] = 1.0, 2.0**-6  # 1 + 1023 * 2^-12: each term below float16's step
    held, wide = rows.astype(scan.dtype), rows.astype(np.float64)
    for query in wide:
        got = scan.scores(held, query.astype(np.float32)).astype(np.float64)
        exact = wide @ query
        allowed = dim * _SINGLE_ULP * (np.abs(wide) @ np.abs(query)) + 1e-12
        if got.shape != exact.shape or not (np.abs(got - exact) <= allowed).all():
            return False
    return True


def half_scan() -> HalfScan | None:
    """SimSIMD's float16 scan; None when it is not installed or no kernel passes ``sound``."""
    try:
        return _checked_half_scan()
    except ConfigurationError:
        return None


def _checked_half_scan() -> HalfScan:
    try:
        simd = import_module("simsimd")
    except ImportError:
        raise MissingExtraError("half-precision vectors", "embedded", "simsimd") from None
    scan = HalfScan(simd)
    try:
        off = switch_to_sound(simd, lambda: sound(scan))
    except Exception as exc:  # an unusable build
        raise ConfigurationError(f"simsimd's float16 kernel failed: {exc}") from exc
    if off is None:
        raise ConfigurationError(
            "simsimd's float16 kernel adds in half precision on this CPU, even with its "
            "AVX512-FP16 and SVE kernels switched off: use vector_precision='single'"
        )
    return scan


def choose(precision: Precision) -> VectorScan:
    """``auto``: half precision when available and sound, single otherwise."""
    if precision == "single":
        return SingleScan()
    if precision == "half":
        return _checked_half_scan()
    return half_scan() or SingleScan()
