"""The LoCoMo question-answering harness, end to end offline: a scripted model forms memory,
answers from what the memory gives it, and a rule judges, on a tiny LoCoMo-format file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from benchmarks.locomo_qa import evaluate, parser
from eden_memory.demo.lookup_model import LookupModel
from eden_memory.domain.errors import InvalidLLMOutputError
from eden_memory.ports.llm import LLMRequest
from eden_memory.testing import KeywordEmbedder, ScriptedLLM

ADOPTED = "I adopted a puppy called Rex last week, we walk him twice a day."
BREED = "A beagle, he loves running on the beach every single morning."
CELLO = "I started learning the cello this month, lessons are on Tuesdays."


def turn(dia_id: str, speaker: str, text: str) -> dict[str, str]:
    return {"speaker": speaker, "dia_id": dia_id, "text": text}


def qa(question: str, answer: str, evidence: list[str], category: int) -> dict[str, Any]:
    return {"question": question, "answer": answer, "evidence": evidence, "category": category}


DATA: dict[str, Any] = {
    "sample_id": "conv-t",
    "conversation": {
        "speaker_a": "Ann",
        "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            turn("D1:1", "Ann", ADOPTED),
            turn("D1:2", "Bob", "Lovely! What breed is he?"),
            turn("D1:3", "Ann", BREED),
            turn("D1:4", "Bob", "Sounds like a happy dog."),
        ],
        "session_2_date_time": "10:00 am on 20 May, 2023",
        "session_2": [
            turn("D2:1", "Bob", CELLO),
            turn("D2:2", "Ann", "Nice, I play the flute in a small band on weekends."),
            turn("D2:3", "Bob", "We should play together sometime."),
            turn("D2:4", "Ann", "Yes, let's do that."),
        ],
    },
    "observation": {
        "session_1_observation": {"Ann": [["Ann adopted a puppy named Rex.", "D1:1"]]},
        "session_2_observation": {"Bob": [["Bob is learning the cello.", "D2:1"]]},
    },
    "qa": [
        qa("Which pet did Ann adopt?", "Rex", ["D1:1"], 4),
        qa("What breed is Ann's puppy Rex, and where does he run?", "beagle", ["D1:1", "D1:3"], 1),
        qa("When did Ann adopt Rex?", "1 May 2023", ["D1:1"], 2),
        qa("Which instrument does Bob learn?", "cello", ["D2:1"], 4),
        qa("Which instrument does Ann play?", "flute", ["D2:2"], 3),
        {
            "question": "What did Bob adopt?",
            "adversarial_answer": "a puppy",
            "evidence": ["D1:1"],
            "category": 5,
        },
    ],
}
FORMATION = LookupModel(
    facts={
        ADOPTED: [("Ann adopted a puppy named Rex.", "user")],
        BREED: [("Ann's puppy Rex is a beagle who runs on the beach.", "user")],
        CELLO: [("Bob is learning the cello.", "user")],
    }
)
# What the answering "model" looks for in the memory it is given, and what it then says.
LOOKS_FOR = {
    "Which pet did Ann adopt?": ("Rex", "Rex, a puppy"),
    "What breed is Ann's puppy Rex, and where does he run?": ("beagle", "A beagle, on the beach"),
    "When did Ann adopt Rex?": ("Rex", "May 2023"),
    "Which instrument does Bob learn?": ("cello", "The cello"),
    "Which instrument does Ann play?": ("flute", "the flute"),
}


def answer(request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
    memory, _, asked = request.prompt.rpartition("\nQuestion: ")
    question = asked.split("\n", 1)[0]
    wanted, said = LOOKS_FOR[question]
    return {"answer": said if wanted in memory else "unknown"}


def judge(request: LLMRequest, schema: type[BaseModel]) -> dict[str, Any]:
    lines = dict(line.split(": ", 1) for line in request.prompt.splitlines() if ": " in line)
    right = lines["Gold answer"].lower() in lines["Answer to grade"].lower()
    return {"label": "CORRECT" if right else "WRONG"}


def model(**overrides: Any) -> ScriptedLLM:
    return ScriptedLLM(FORMATION, by_purpose={"answer": answer, "judge": judge, **overrides})


async def run(tmp_path: Path, *options: str, llm: ScriptedLLM | None = None) -> dict[str, Any]:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([DATA]), encoding="utf-8")
    args = parser().parse_args(
        ["--data", str(data), "--output", str(tmp_path / "qa.json"), "--sessions", "2", *options]
    )
    args.embedder_instance = KeywordEmbedder()
    scripted = llm or model()
    return await evaluate(args, scripted, scripted, scripted)


async def test_j_is_the_share_judged_correct_overall_and_per_category(tmp_path: Path) -> None:
    results = await run(tmp_path)

    answers = {q["question"]: (q["answer"], q["label"]) for q in results["questions"]}
    assert answers == {
        "Which pet did Ann adopt?": ("Rex, a puppy", "CORRECT"),
        "What breed is Ann's puppy Rex, and where does he run?": (
            "A beagle, on the beach",
            "CORRECT",
        ),
        "When did Ann adopt Rex?": ("May 2023", "WRONG"),
        "Which instrument does Bob learn?": ("The cello", "CORRECT"),
        "Which instrument does Ann play?": ("unknown", "WRONG"),  # no fact was formed
    }
    assert results["j"]["overall"] == {"n": 5, "correct": 3, "failed": 0, "J": 60.0}
    by_category = {name: (row["n"], row["J"]) for name, row in results["j"]["by_category"].items()}
    assert by_category == {
        "multi-hop": (1, 100.0),
        "temporal": (1, 0.0),
        "open-domain": (1, 0.0),
        "single-hop": (2, 100.0),
    }


async def test_category_5_is_never_asked(tmp_path: Path) -> None:
    llm = model()
    results = await run(tmp_path, llm=llm)

    asked = [r.prompt for r in llm.calls_for("answer")]
    assert len(asked) == 5
    assert not any("What did Bob adopt?" in prompt for prompt in asked)
    assert {q["category"] for q in results["questions"]} == {1, 2, 3, 4}


async def test_the_answer_is_given_the_memory_context_and_the_search_results(
    tmp_path: Path,
) -> None:
    llm = model()
    await run(tmp_path, llm=llm)

    prompt = llm.calls_for("answer")[0].prompt
    assert prompt.startswith("Today is Saturday 20 May 2023.")
    assert "<MemoryContext>" in prompt  # the session-2 fact is in the FIFO
    assert 'Facts found for "Which pet did Ann adopt?", best first:' in prompt
    assert "Ann adopted a puppy named Rex. (11d ago)" in prompt


async def test_usage_is_counted_for_formation_answering_and_judging(tmp_path: Path) -> None:
    stages = (await run(tmp_path))["stages"]

    assert stages["formation"]["calls"] >= 2  # two sessions, at least fact extraction each
    assert (stages["answering"]["calls"], stages["judging"]["calls"]) == (5, 5)
    for row in stages.values():
        assert row["prompt_tokens"] > 0
        assert row["output_tokens"] > 0
        assert row["failed_calls"] == 0
        assert row["seconds"] >= 0


async def test_fewer_sessions_ask_only_the_questions_whose_evidence_was_formed(
    tmp_path: Path,
) -> None:
    results = await run(tmp_path, "--sessions", "1")

    assert [r["session"] for r in results["runs"]] == ["session_1"]
    assert {q["question"] for q in results["questions"]} == {
        "Which pet did Ann adopt?",
        "What breed is Ann's puppy Rex, and where does he run?",
        "When did Ann adopt Rex?",
    }
    assert results["scores"]["recall"]["formed facts"]["questions"] == 3


async def test_a_subset_takes_one_question_of_each_category_in_turn(tmp_path: Path) -> None:
    results = await run(tmp_path, "--questions", "3")

    assert [q["category"] for q in results["questions"]] == [1, 2, 3]


async def test_a_failed_answer_counts_as_wrong_and_is_listed(tmp_path: Path) -> None:
    def broken(request: LLMRequest, schema: type[BaseModel]) -> Any:
        if "Which instrument does Bob learn?" in request.prompt:
            return InvalidLLMOutputError("truncated")
        return answer(request, schema)

    results = await run(tmp_path, llm=model(answer=broken))

    failed = [q for q in results["questions"] if q["error"]]
    assert [(q["question"], q["label"]) for q in failed] == [
        ("Which instrument does Bob learn?", "")
    ]
    assert failed[0]["error"].startswith("answer: InvalidLLMOutputError")
    assert results["j"]["overall"] == {"n": 5, "correct": 2, "failed": 1, "J": 40.0}
    assert results["stages"]["answering"]["failed_calls"] == 2  # asked again once


async def test_the_saved_run_holds_the_formed_facts_for_formation_quality(tmp_path: Path) -> None:
    await run(tmp_path)
    saved = json.loads((tmp_path / "qa.json").read_text(encoding="utf-8"))

    assert sorted(f["content"] for f in saved["facts"]) == [
        "Ann adopted a puppy named Rex.",
        "Ann's puppy Rex is a beagle who runs on the beach.",
        "Bob is learning the cello.",
    ]
    assert saved["j"]["overall"]["J"] == 60.0
    assert saved["scores"]["recall"]["formed facts"]["coverage"] == 80.0
