"""Keeping SimSIMD off the float16 dot products that add in half precision.

SimSIMD runs, on each call, the kernel of the most advanced capability it has enabled. Its
float16 dot product widens to float32 before adding in the ``haswell`` kernel
(``vcvtph2ps``, ``vfmadd231ps``), the ``neon_f16`` one (``vcvt_f32_f16``, ``vfmaq_f32``) and
the serial one, which ``scan``'s error bound needs. Two kernels add in float16 instead:
``sapphire`` (AVX512-FP16: ``vfmadd231ph`` into a half-precision register, reduced with
``vaddph``; read in the 6.5.16 wheel's machine code and in ``include/simsimd/dot.h``) and the
SVE one (``svmla_f16_x`` into an ``svfloat16_t``), labelled ``sve_f16`` but chosen on ``sve``
alone in ``simsimd.h`` 6.2. So ``switch_to_sound`` switches off, while the kernel fails its
check, first ``sapphire`` and ``sve_f16``, then ``sve``; where the kernel passes as it is,
it changes nothing.

SimSIMD's capabilities are process-wide: switching one off changes what every user of
SimSIMD in the process runs (``sapphire`` also serves float16 cosine and L2, ``sve`` every
SVE kernel), and re-enabling it later brings the unsound kernel back.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from types import ModuleType

log = logging.getLogger("eden_memory.adapters.stores.sqlite")

# Switched off in this order, each step only if the kernel is still unsound.
HALF_ADDERS: tuple[tuple[str, ...], ...] = (("sapphire", "sve_f16"), ("sve",))

_SWITCHING = threading.Lock()  # one check-and-switch at a time: the state is global


def switch_to_sound(simd: ModuleType, sound: Callable[[], bool]) -> tuple[str, ...] | None:
    """Switch off half-adding capabilities until ``sound()``; which were switched off.

    None when no step helps (or the check raises): the capabilities are then switched back
    on, leaving SimSIMD as it was for the rest of the process.
    """
    off: list[str] = []
    found = False
    with _SWITCHING:
        try:
            found = _step_down(simd, sound, off)
        finally:
            if not found:
                for name in off:
                    simd.enable_capability(name)
    if not found:
        return None
    if off:
        log.warning(
            "SimSIMD: switched off %s for the whole process: their float16 kernels add in "
            "half precision",
            ", ".join(off),
        )
    return tuple(off)


def _step_down(simd: ModuleType, sound: Callable[[], bool], off: list[str]) -> bool:
    """Whether some step makes ``sound()`` hold; ``off`` collects what was switched off."""
    for step in ((), *HALF_ADDERS):
        now = [name for name in step if simd.get_capabilities().get(name)]
        if step and not now:
            continue  # nothing changes: the last verdict stands
        for name in now:
            simd.disable_capability(name)
            off.append(name)
        if sound():
            return True
    return False
