"""The questions LoCoMo's J protocol asks: categories 1-4, each with its gold answer.

``benchmarks.locomo_data`` reads the questions for retrieval and leaves their answers out;
this pairs each one it keeps with its gold answer. Category 5 (adversarial) has no
``answer`` and is never kept there, so it is never asked here either. Which questions a run
asks is chosen here too: only those whose evidence lies in the formed sessions (a question
about a session the memory never saw measures nothing), spread over the categories.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.locomo_data import Question, Sample, parse_sample


@dataclass(frozen=True)
class QAItem:
    """A question to ask, in the conversation it is about, with the answer a person wrote."""

    question: Question
    gold: str
    position: int  # its place among the conversation's kept questions (dataset order)


def load_with_answers(path: Path) -> list[tuple[Sample, list[QAItem]]]:
    """Every conversation of the file with its askable questions and their gold answers."""
    with path.open(encoding="utf-8") as file:
        raw_samples = json.load(file)
    out = []
    for raw in raw_samples:
        sample = parse_sample(raw)
        answers: dict[tuple[str, int], deque[str]] = {}
        for qa in raw["qa"]:
            if "answer" in qa:  # category 5 has an "adversarial_answer" instead
                key = (str(qa["question"]), qa.get("category"))
                answers.setdefault(key, deque()).append(str(qa["answer"]))
        items = [
            QAItem(q, answers[(q.text, q.category)].popleft(), i)
            for i, q in enumerate(sample.questions)
        ]
        out.append((sample, items))
    return out


def session_of(dia_id: str) -> str:
    """``D3:5`` was said in ``session_3``."""
    return f"session_{dia_id[1:].split(':', 1)[0]}"


def answerable(items: Sequence[QAItem], sessions: Collection[str]) -> list[QAItem]:
    """The questions whose every piece of evidence was said in ``sessions``."""
    return [i for i in items if all(session_of(e) in sessions for e in i.question.evidence)]


def spread(items: Sequence[QAItem], limit: int | None) -> list[QAItem]:
    """At most ``limit`` questions taken in turn from each category (1, 2, 3, 4, 1, ...),
    each category's in dataset order: a subset that tests every kind of question, and the
    same subset on every run. The result keeps the input's order."""
    if limit is None or limit >= len(items):
        return list(items)
    queues = {
        c: deque(n for n, i in enumerate(items) if i.question.category == c) for c in (1, 2, 3, 4)
    }
    chosen: set[int] = set()
    while len(chosen) < limit:
        for queue in queues.values():
            if queue and len(chosen) < limit:
                chosen.add(queue.popleft())
    return [i for n, i in enumerate(items) if n in chosen]
