"""The formation-quality harness on a scripted model and a tiny LoCoMo-format file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.formation_quality import evaluate, parser
from eden_memory.demo.lookup_model import LookupModel
from eden_memory.testing import KeywordEmbedder, ScriptedLLM

ADOPTED = "I adopted a puppy called Rex last week."
BREED = "A beagle, he loves running on the beach every single morning."
DATA: dict[str, Any] = {
    "sample_id": "conv-t",
    "conversation": {
        "speaker_a": "Ann",
        "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": ADOPTED},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Lovely! What breed is he?"},
            {"speaker": "Ann", "dia_id": "D1:3", "text": BREED},
        ],
        "session_2_date_time": "10:00 am on 20 May, 2023",
        "session_2": [
            {"speaker": "Bob", "dia_id": "D2:1", "text": "I started learning the cello."},
        ],
    },
    "observation": {
        "session_1_observation": {
            "Ann": [["Ann adopted a puppy named Rex.", "D1:1"], ["Rex is a beagle.", "D1:3"]]
        },
        "session_2_observation": {"Bob": [["Bob is learning the cello.", "D2:1"]]},
    },
    "qa": [
        {
            "question": "Which pet did Ann adopt?",
            "answer": "Rex",
            "evidence": ["D1:1"],
            "category": 4,
        },
        {
            "question": "Which breed is Rex?",
            "answer": "beagle",
            "evidence": ["D1:3"],
            "category": 4,
        },
        {
            "question": "What does Bob learn?",
            "answer": "cello",
            "evidence": ["D2:1"],
            "category": 4,
        },
    ],
}
# The model finds one good fact and copies another message word for word (rejected).
MODEL = LookupModel(
    facts={ADOPTED: [("Ann adopted a puppy named Rex.", "user")], BREED: [(BREED, "user")]}
)


async def run(tmp_path: Path, *extra: str, sessions: int = 1) -> dict[str, Any]:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([DATA]), encoding="utf-8")
    args = parser().parse_args(
        ["--data", str(data), "--output", str(tmp_path / "out.json"), *extra]
    )
    args.sessions = sessions
    args.embedder_instance = KeywordEmbedder()
    return await evaluate(args, ScriptedLLM(MODEL))


async def test_the_formed_facts_are_scored_beside_the_observations_of_the_same_sessions(
    tmp_path: Path,
) -> None:
    results = await run(tmp_path)

    assert [(f["content"], f["message_ids"], f["session"]) for f in results["facts"]] == [
        ("Ann adopted a puppy named Rex.", ["D1:1"], "session_1")
    ]
    formed = results["scores"]["recall"]["formed facts"]
    observed = results["scores"]["recall"]["observations"]
    # Bob's cello lies in session 2, which was not formed: two questions count, not three.
    assert formed["questions"] == observed["questions"] == 2
    assert (formed["documents"], observed["documents"]) == (1, 2)
    assert formed["coverage"] == 50.0
    assert observed["coverage"] == 100.0
    assert formed["hybrid off"]["5"] == 50.0
    assert observed["hybrid off"]["5"] == 100.0
    # No observation cites more than one turn here, nor does the fact: the same row.
    assert results["scores"]["recall"]["formed, <=1 ids"] == formed


async def test_the_formation_report_counts_rejections_calls_and_time(tmp_path: Path) -> None:
    stats = (await run(tmp_path))["scores"]["formation"]

    assert (stats["formations"], stats["messages"], stats["failed"]) == (1, 3, [])
    assert stats["facts_per_session"] == 1.0
    assert stats["words_per_fact"] == 6.0
    assert stats["rejected"] == 1
    assert list(stats["rejected_reasons"]) == [
        "fact: repeats message N of the conversation nearly word for word; a fact is a statement "
        "written to be found later, not a message"
    ]
    assert stats["llm_calls_per_formation"] >= 1
    assert stats["tokens_in_per_formation"] > 0
    assert stats["tokens_out_per_formation"] > 0
    assert len(stats["seconds_per_formation"]) == 1


async def test_a_saved_run_is_scored_again_without_forming(tmp_path: Path) -> None:
    first = await run(tmp_path)
    again = await run(tmp_path, "--formed", str(tmp_path / "out.json"))

    assert again["scores"] == first["scores"]


async def test_a_later_session_adds_its_questions_and_keeps_the_facts_once(tmp_path: Path) -> None:
    results = await run(tmp_path, sessions=2)

    assert [r["session"] for r in results["runs"]] == ["session_1", "session_2"]
    assert len(results["facts"]) == 1  # saved after each session, replaced, not appended
    assert results["scores"]["recall"]["formed facts"]["questions"] == 3
    assert results["scores"]["recall"]["observations"]["coverage"] == 100.0
