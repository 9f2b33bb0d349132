"""Scoring a formation run: evidence recall@k over the formed facts and over the observations.

Both corpora hold the same sessions and are indexed the same way (``benchmarks.locomo``:
each document a user fact of one agent, one user per conversation, dated by its session),
so the only difference between the rows is what the documents say and which dialog ids
they cite. Only the questions whose evidence lies wholly in the formed sessions count.

A fact covers every message it cites, and a fact whose model named no source cites the whole
batch (``SourcedFact.of``): such a fact would cover evidence it does not state. The third row
keeps only the facts citing no more messages than the most any observation of the dataset
cites (3 in LoCoMo's development split), so a high recall from citing everything shows.
"""

from __future__ import annotations

import re
import statistics
import tempfile
from collections import Counter
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.formation_placement import placement_stats, print_placement
from benchmarks.locomo import Run, eden_index, eden_search
from benchmarks.locomo_data import KS, Doc, Question, Sample, recall_at
from eden_memory.application.search import SearchMode
from eden_memory.ports.embedder import Embedder


def session_of(dia_id: str) -> str:
    """``D3:5`` was said in ``session_3``."""
    return f"session_{dia_id[1:].split(':', 1)[0]}"


def formed_docs(facts: list[dict[str, Any]], sample_id: str) -> list[Doc]:
    return [
        Doc(
            f["content"],
            tuple(f["message_ids"]),
            datetime.fromisoformat(f["said_at"]),
            f["session"],
        )
        for f in facts
        if f["sample"] == sample_id
    ]


def corpora(samples: list[Sample], formed: dict[str, Any]) -> dict[str, list[Sample]]:
    """The formed facts and the observations of the formed sessions, with their questions."""
    sessions: dict[str, set[str]] = {}
    for run in formed["runs"]:
        sessions.setdefault(run["sample"], set()).add(run["session"])
    narrow = max((len(d.evidence) for s in samples for d in s.observations), default=1)
    tight = f"formed, <={narrow} ids"
    out: dict[str, list[Sample]] = {"formed facts": [], tight: [], "observations": []}
    for sample in samples:
        done = sessions.get(sample.sample_id)
        if not done:
            continue
        questions = [q for q in sample.questions if all(session_of(e) in done for e in q.evidence)]
        observed = [d for d in sample.observations if d.session in done]
        facts = formed_docs(formed["facts"], sample.sample_id)
        base = replace(sample, turns=[], questions=questions, excluded={})
        out["formed facts"].append(replace(base, observations=facts))
        cited = [d for d in facts if len(d.evidence) <= narrow]
        out[tight].append(replace(base, observations=cited))
        out["observations"].append(replace(base, observations=observed))
    return out


def coverage(sample: Sample, question: Question) -> float:
    """Recall with no cut: the share of the evidence any document of the corpus cites."""
    return recall_at(question.evidence, [d.evidence for d in sample.observations], 10**9)


async def recall(name: str, samples: list[Sample], embedder: Embedder) -> dict[str, Any]:
    questions = [(s, q) for s in samples for q in s.questions]
    out: dict[str, Any] = {"documents": sum(len(s.observations) for s in samples)}
    out["questions"] = len(questions)
    if not questions:
        return out
    out["coverage"] = 100 * statistics.fmean(coverage(s, q) for s, q in questions)
    with tempfile.TemporaryDirectory(prefix="formation-quality-") as tmp:
        memory, _, _ = await eden_index(Path(tmp) / "index.db", embedder, samples, "observations")
        try:
            for thresholds in (True, False):
                run = Run(
                    name, name, "eden-memory", eden_search(memory, SearchMode.HYBRID, thresholds)
                )
                for _, question in questions:
                    await run.ask(question)
                    await memory.wait_for_background()
                out[f"hybrid {'on' if thresholds else 'off'}"] = run.summary()["recall"]
        finally:
            await memory.aclose()
            await memory.admin.stores.close()
    return out


def _counted(runs: list[dict[str, Any]], key: str) -> int | str:
    """A count the runs recorded; a run file from before it was counted says so, not 0."""
    if any(key not in r for r in runs):
        return "not recorded"
    return sum(int(r[key]) for r in runs)


def formation_stats(formed: dict[str, Any]) -> dict[str, Any]:
    runs, facts = formed["runs"], formed["facts"]
    words = [len(f["content"].split()) for f in facts]
    ids = [len(f["message_ids"]) for f in facts]
    # "repeats message 3" and "repeats message 7" are one reason.
    reasons = Counter(re.sub(r"\d+", "N", why) for r in runs for _, why in r["rejected"])
    n = max(len(runs), 1)
    return {
        "formations": len(runs),
        "failed": [f"{r['sample']} {r['session']}: {r['error']}" for r in runs if r["error"]],
        "messages": sum(r["messages"] for r in runs),
        "facts": len(facts),
        "facts_per_session": len(facts) / n,
        "words_per_fact": statistics.fmean(words) if words else 0.0,
        "ids_per_fact": statistics.fmean(ids) if ids else 0.0,
        "most_ids_per_fact": max(ids, default=0),
        "scopes": dict(Counter(f["scope"] for f in facts)),
        "citations_trimmed": _counted(runs, "citations_trimmed"),
        "dates_resolved": _counted(runs, "dates_resolved"),
        "rejected": sum(len(r["rejected"]) for r in runs),
        "rejected_reasons": dict(reasons.most_common()),
        "reflections_per_session": sum(r["reflections"] for r in runs) / n,
        "consolidations": dict(sum((Counter(r["consolidations"]) for r in runs), Counter())),
        "llm_calls_per_formation": sum(r["llm_calls"] for r in runs) / n,
        "tokens_in_per_formation": sum(r["tokens_in"] for r in runs) / n,
        "tokens_out_per_formation": sum(r["tokens_out"] for r in runs) / n,
        "seconds_per_formation": [round(r["seconds"], 1) for r in runs],
    }


async def score(
    samples: list[Sample], formed: dict[str, Any], embedder: Embedder
) -> dict[str, Any]:
    by_corpus = corpora(samples, formed)
    return {
        "formation": formation_stats(formed),
        "placement": placement_stats(formed),
        "recall": {name: await recall(name, s, embedder) for name, s in by_corpus.items()},
    }


def print_tables(results: dict[str, Any]) -> None:
    stats, recalls = results["scores"]["formation"], results["scores"]["recall"]
    print(f"\nFormation by {results.get('provider')} / {results.get('model')}")
    for key in (
        "formations",
        "messages",
        "facts",
        "facts_per_session",
        "words_per_fact",
        "ids_per_fact",
        "most_ids_per_fact",
        "scopes",
        "citations_trimmed",
        "dates_resolved",
        "rejected",
        "reflections_per_session",
        "consolidations",
        "llm_calls_per_formation",
        "tokens_in_per_formation",
        "tokens_out_per_formation",
        "seconds_per_formation",
        "failed",
    ):
        value = stats[key]
        print(
            f"  {key.replace('_', ' '):<28}{value:.1f}"
            if isinstance(value, float)
            else f"  {key.replace('_', ' '):<28}{value}"
        )
    for why, count in stats["rejected_reasons"].items():
        print(f"    rejected {count} x {why[:90]}")
    if "placement" in results["scores"]:
        print_placement(results["scores"]["placement"])
    head = f"{'corpus':<28}{'docs':>6}{'n':>5}{'cover':>7}" + "".join(
        f"{'R@' + str(k):>8}" for k in KS
    )
    print("\nEvidence recall@k (%), questions with all evidence in the formed sessions")
    print(head)
    print("-" * len(head))
    for name, row in recalls.items():
        for setting in ("hybrid on", "hybrid off"):
            if setting not in row:
                print(f"{name:<28}{row['documents']:>6}{row['questions']:>5}  (no questions)")
                break
            values = "".join(f"{row[setting][str(k)]:>8.1f}" for k in KS)
            label = f"{name} ({setting.split()[1]})"
            print(
                f"{label:<28}{row['documents']:>6}{row['questions']:>5}{row['coverage']:>7.1f}{values}"
            )
