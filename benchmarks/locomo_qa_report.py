"""J and what it cost: the share of questions judged CORRECT, overall and per category, and
the calls, tokens and seconds of formation, answering and judging, each on its own line.

A question whose answer or verdict failed counts as WRONG (nothing was answered) and is
listed, so a failing provider cannot raise J by shrinking the denominator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.locomo_data import CATEGORIES
from eden_memory.domain.usage import LLMTally, UsageSnapshot


@dataclass
class QARecord:
    """One question asked: what the model answered, what the judge said, and what it took."""

    sample: str
    category: int
    question: str
    gold: str
    answer: str = ""
    label: str = ""  # CORRECT or WRONG; empty when the answer or the verdict failed
    error: str = ""
    hits: int = 0  # search_facts results given with the question
    context_chars: int = 0
    prompt_chars: int = 0
    retrieval_seconds: float = 0.0
    answer_seconds: float = 0.0
    judge_seconds: float = 0.0


def j_score(records: Sequence[QARecord]) -> dict[str, Any]:
    """J (%) over all questions and per category, with the questions counted."""

    def row(chosen: Sequence[QARecord]) -> dict[str, Any]:
        correct = sum(r.label == "CORRECT" for r in chosen)
        j = 100 * correct / len(chosen) if chosen else 0.0
        failed = sum(not r.label for r in chosen)
        return {"n": len(chosen), "correct": correct, "failed": failed, "J": j}

    by_category = {
        name: row([r for r in records if r.category == c]) for c, name in CATEGORIES.items()
    }
    return {"overall": row(records), "by_category": by_category}


QA_PURPOSES = ("answer", "judge")


def stages(usage: UsageSnapshot, seconds: dict[str, float]) -> dict[str, dict[str, Any]]:
    """Calls, failed calls and tokens of formation (every purpose of the library's own),
    answering and judging, from the one meter of the run; ``seconds`` by stage."""
    by_purpose = usage.llm_by_purpose()
    formation = [t for p, t in by_purpose.items() if p not in QA_PURPOSES]
    groups = {
        "formation": formation,
        "answering": [by_purpose.get("answer", LLMTally())],
        "judging": [by_purpose.get("judge", LLMTally())],
    }
    out = {}
    for stage, tallies in groups.items():
        total = sum(tallies, LLMTally())
        out[stage] = {
            "calls": total.calls,
            "failed_calls": total.failures,
            "prompt_tokens": total.input_tokens,
            "output_tokens": total.output_tokens,
            "seconds": seconds.get(stage, 0.0),
        }
    return out


def print_j(results: dict[str, Any]) -> None:
    scores, stages = results["j"], results["stages"]
    print(f"\nLoCoMo J, answers by {results['answer_model']}, judged by {results['judge_model']}")
    head = f"{'category':<14}{'n':>5}{'correct':>9}{'failed':>8}{'J (%)':>8}"
    print(head)
    print("-" * len(head))
    rows = [*scores["by_category"].items(), ("overall", scores["overall"])]
    for name, row in rows:
        print(f"{name:<14}{row['n']:>5}{row['correct']:>9}{row['failed']:>8}{row['J']:>8.1f}")
    head = f"\n{'stage':<12}{'calls':>7}{'failed':>8}{'prompt tok':>12}{'output tok':>12}{'s':>9}"
    print(head)
    print("-" * (len(head) - 1))
    for name, row in stages.items():
        print(
            f"{name:<12}{row['calls']:>7}{row['failed_calls']:>8}{row['prompt_tokens']:>12}"
            f"{row['output_tokens']:>12}{row['seconds']:>9.1f}"
        )
