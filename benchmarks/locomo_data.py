"""Reading a LoCoMo-format file: documents to retrieve, questions, evidence, and recall.

A document is what gets stored as one fact: an observation (it covers the dialog ids it
cites) or a raw dialog turn (it covers its own ``dia_id``). Nothing here knows the library.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10, 25, 50)
_DIA_ID = re.compile(r"D\d+:\d+\Z")
_SESSION = re.compile(r"session_(\d+)\Z")


@dataclass(frozen=True)
class Doc:
    text: str
    evidence: tuple[str, ...]  # the dialog ids this document covers
    said_at: datetime
    session: str


@dataclass(frozen=True)
class Question:
    sample: str
    text: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Sample:
    sample_id: str
    observations: list[Doc]
    turns: list[Doc]
    questions: list[Question]  # categories 1-4 with usable evidence
    excluded: dict[str, list[str]]  # why -> the questions left out of the averages


def session_time(text: str) -> datetime:
    """LoCoMo dates look like ``1:56 pm on 8 May, 2023``; taken as UTC."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def _turn_text(turn: dict[str, Any]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    caption = turn.get("blip_caption")
    return f"{text} [shares {caption}]" if caption else text


def _evidence_problem(evidence: object, known: set[str]) -> str | None:
    if not isinstance(evidence, list) or not evidence:
        return "missing evidence"
    if not all(isinstance(e, str) and _DIA_ID.match(e) for e in evidence):
        return "malformed evidence id"
    if not all(e in known for e in evidence):
        return "evidence id not in the conversation"
    return None


def parse_sample(raw: dict[str, Any]) -> Sample:
    conversation = raw["conversation"]
    sample_id = str(raw["sample_id"])
    turns: list[Doc] = []
    dates: dict[str, datetime] = {}
    for key in sorted(conversation, key=lambda k: (len(k), k)):
        match = _SESSION.match(key)
        if match is None:  # dates, speakers; a date without a session is ignored
            continue
        dates[key] = session_time(conversation[f"{key}_date_time"])
        for turn in conversation[key]:
            turns.append(Doc(_turn_text(turn), (turn["dia_id"],), dates[key], key))
    known = {e for d in turns for e in d.evidence}
    observations: list[Doc] = []
    for key, by_speaker in raw["observation"].items():
        session = key.removesuffix("_observation")
        for items in by_speaker.values():
            for text, cited in items:
                ids = tuple(cited) if isinstance(cited, list) else (cited,)
                observations.append(Doc(str(text), ids, dates[session], session))
    questions: list[Question] = []
    excluded: dict[str, list[str]] = {}
    for qa in raw["qa"]:
        category = qa.get("category")
        if category not in CATEGORIES:
            continue
        problem = _evidence_problem(qa.get("evidence"), known)
        if problem is not None:
            excluded.setdefault(problem, []).append(f"{sample_id}: {qa['question']}")
            continue
        evidence = tuple(dict.fromkeys(qa["evidence"]))
        questions.append(Question(sample_id, str(qa["question"]), int(category), evidence))
    return Sample(sample_id, observations, turns, questions, excluded)


def load(path: Path) -> list[Sample]:
    with path.open(encoding="utf-8") as file:
        return [parse_sample(raw) for raw in json.load(file)]


def recall_at(evidence: Sequence[str], retrieved: Sequence[Iterable[str]], k: int) -> float:
    """|evidence ∩ ids covered by the top k| / |evidence| (the LoCoMo paper's measure)."""
    covered = {e for doc in retrieved[:k] for e in doc}
    return sum(e in covered for e in evidence) / len(evidence)


def ceiling(sample: Sample, question: Question) -> float:
    """The best recall any ranking of the observations can reach for this question."""
    cited = {e for d in sample.observations for e in d.evidence}
    return sum(e in cited for e in question.evidence) / len(question.evidence)
