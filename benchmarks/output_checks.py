"""What the checks on model output refuse, measured on human-written memory (LoCoMo).

The checks (``domain/fact_checks.py``, ``domain/scaffolding.py``) were written from what a
real small model produced (issue 15); their thresholds were set before this ran. Here they
meet text they must keep and text they must refuse:

- facts: LoCoMo's observations (written by people as facts about the dialogue) checked
  against the turns of their own session and our extraction prompt over them (whose worked
  example a fact must not repeat): every refusal is a false one. Then each turn of
  at most 30 words (the fact limit) offered as a fact, as a model copying messages would:
  every turn kept is a copy the checks miss.
- reflections: the same observations offered as notes answering our reflection prompt over
  their session's turns, with the checks a note gets (the echo, the copied message, the
  first person): every refusal is false.
- consolidation: each session summary offered as the answer to our consolidation prompt
  over that session's observations as notes (every refusal is false), then the same
  summary with an echo of the prompt put in front of it (every summary kept is a miss).

    python -m benchmarks.output_checks [--data path/to/locomo.json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from eden_memory.application.prompts.consolidation import consolidation_prompt
from eden_memory.application.prompts.facts import fact_extraction_prompt
from eden_memory.application.prompts.reflections import reflection_prompt
from eden_memory.domain.fact_checks import FactChecks
from eden_memory.domain.ids import ReflectionId, SessionId
from eden_memory.domain.models import ConsolidatedMemory, Message, Reflection, Role
from eden_memory.domain.scaffolding import Scaffolding, echoed_scaffolding, scaffolding_of
from eden_memory.domain.scopes import HIERARCHY, Scope, ScopeKey

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo-dev.json"
T0 = datetime(2023, 1, 1, tzinfo=UTC)
KEY = ScopeKey.agent("locomo")
# What a model could copy from today's consolidation prompt (it has no tag and no placeholder).
ECHOES = {
    "opening line": "The section has no text yet. Write it from these notes, oldest first:\n",
    "JSON placeholder": "the new text of the section\n",
    "worked example": "Work:\n- Ana's nursing exam is on 24 May.\n",
    "rule": "Invent nothing, and copy no instructions: only what the text and the notes say.\n",
}


def _sessions(conv: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    c = conv["conversation"]
    return [(k, v) for k, v in c.items() if k.startswith("session_") and isinstance(v, list)]


def _kind(problem: str | None) -> str:
    if problem is None:
        return "kept"
    if problem.startswith("echoes"):
        return "echo of the prompt"
    return "verbatim message" if problem.startswith("repeats") else "first person"


def _echo(text: str, scaffold: Scaffolding) -> str | None:
    return "echoes the prompt" if echoed_scaffolding(text, scaffold) else None


def _messages(session: list[dict[str, Any]]) -> list[Message]:
    return [
        Message(id=f"m{i}", role=Role.USER, text=t["text"], sent_at=T0)
        for i, t in enumerate(session)
    ]


def facts(data: list[dict[str, Any]]) -> tuple[Counter[str], Counter[str], list[str]]:
    """Observations, then short turns, offered as facts: the checks a fact gets, the echo of
    the extraction prompt (its worked example) included."""
    observed: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    refused: list[str] = []
    for conv in data:
        for name, session in _sessions(conv):
            messages = _messages(session)
            checks = FactChecks.of(messages)
            system, prompt = fact_extraction_prompt(messages, {Scope.USER, Scope.AGENT}, 30)
            scaffold = scaffolding_of(f"{system}\n{prompt}", [m.text for m in messages])
            for items in conv["observation"].get(f"{name}_observation", {}).values():
                for text, _evidence in items:
                    kind = _kind(checks.problem(text) or _echo(text, scaffold))
                    observed[kind] += 1
                    if kind != "kept":
                        refused.append(f"{kind}: {text}")
            for message in messages:
                if len(message.text.split()) <= 30:
                    turns[_kind(checks.problem(message.text))] += 1
    return observed, turns, refused


def notes_refused(data: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """Observations offered as reflections: how many, and those refused (with the kind)."""
    offered = 0
    refused: list[str] = []
    for conv in data:
        for name, session in _sessions(conv):
            messages = _messages(session)
            checks = FactChecks.of(messages)
            system, prompt = reflection_prompt(messages, list(HIERARCHY), {}, {}, [], 35)
            scaffold = scaffolding_of(f"{system}\n{prompt}", [m.text for m in messages])
            for items in conv["observation"].get(f"{name}_observation", {}).values():
                for text, _evidence in items:
                    offered += 1
                    problem = _echo(text, scaffold) or checks.problem(text, what="reflection")
                    if problem is not None:
                        refused.append(f"{_kind(problem)}: {text}")
    return offered, refused


def _notes(items: dict[str, list[list[str]]]) -> list[Reflection]:
    texts = [text for group in items.values() for text, _evidence in group]
    return [
        Reflection.in_scope(
            KEY,
            id=ReflectionId(f"r{i}"),
            content=text,
            source_session_id=SessionId("s"),
            source_message_ids=(),
            formed_at=T0,
            created_at=T0,
        )
        for i, text in enumerate(texts)
    ]


def blobs(data: list[dict[str, Any]]) -> tuple[int, int, Counter[str]]:
    summaries = refused = 0
    missed: Counter[str] = Counter()
    for conv in data:
        for name, summary in conv["session_summary"].items():
            session = name.removesuffix("_summary")
            notes = _notes(conv["observation"].get(f"{session}_observation", {}))
            current = ConsolidatedMemory.empty(KEY, 400)
            system, prompt = consolidation_prompt(current, notes)
            scaffold = scaffolding_of(f"{system}\n{prompt}", [n.content for n in notes])
            summaries += 1
            refused += bool(echoed_scaffolding(summary, scaffold))
            for label, echo in ECHOES.items():
                missed[label] += not echoed_scaffolding(echo + summary, scaffold)
    return summaries, refused, missed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo-format JSON.")
    args = parser.parse_args()
    data = json.loads(args.data.read_text())
    observed, turns, refused = facts(data)
    print(f"observations as facts: {sum(observed.values())}, refused: {dict(observed)}")
    for line in refused:
        print(f"  refused {line}")
    total = sum(turns.values())
    caught = total - turns["kept"]
    print(f"turns of <= 30 words as facts: {total}, refused {caught} ({caught / total:.1%}):")
    print(f"  {dict(turns)}")
    offered, echoes = notes_refused(data)
    print(f"observations as reflections: {offered}, refused: {len(echoes)}")
    for line in echoes:
        print(f"  refused {line}")
    summaries, wrong, missed = blobs(data)
    print(f"session summaries as consolidated blobs: {summaries}, refused: {wrong}")
    for label, count in missed.items():
        print(f"  with an echo ({label}) in front: missed {count} of {summaries}")


if __name__ == "__main__":
    main()
