"""``benchmarks.personal_stores``: its labels hold, and its runner scores what search returns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.personal_stores.__main__ import run_all
from benchmarks.personal_stores.data import (
    ANSWERABLE,
    DATA,
    UNANSWERABLE,
    Kind,
    Question,
    load_stores,
)
from benchmarks.personal_stores.runner import ASKED_AT, DEFAULTS, NO_ABSTENTION, Outcome, stock
from benchmarks.personal_stores.scores import (
    ANSWERABLE_ALL,
    TINY_UNRELATED,
    auc,
    newer_first,
    older_marked,
    summarize,
)
from eden_memory import EdenMemoryConfig, open_memory
from eden_memory.testing import FakeClock, KeywordEmbedder, memory_stores

STORES = load_stores()


def test_every_label_names_a_fact_of_its_store_that_the_asker_can_see() -> None:
    for store in STORES:
        facts = {f.id: f for f in store.facts}
        for q in store.questions:
            for label in (*q.answers, *([q.older] if q.older else [])):
                assert label in facts, (store.store, q.text)
                assert facts[label].user in (None, q.user), (store.store, q.text)


def test_unanswerable_questions_have_no_label_and_answerable_ones_have_one() -> None:
    for q in (q for s in STORES for q in s.questions):
        assert (q.kind in UNANSWERABLE) == (q.answers == ()), q.text


def test_changed_pairs_have_the_newer_fact_said_later() -> None:
    pairs = [(s, q) for s in STORES for q in s.questions if q.kind is Kind.CHANGED]
    assert len(pairs) >= 14
    for store, q in pairs:
        said = {f.id: f.said for f in store.facts}
        assert q.older is not None
        assert said[q.older] < said[q.answers[0]], q.text


def test_the_splits_are_disjoint_by_store_and_each_covers_every_kind() -> None:
    splits = {s.store: s.split for s in STORES}
    assert len(splits) == len(STORES)
    for split in ("dev", "test"):
        mine = [s for s in STORES if s.split == split]
        kinds = {q.kind for s in mine for q in s.questions}
        assert kinds == set(Kind), split
        assert any(s.tiny for s in mine), split


def test_the_set_is_as_large_as_the_issue_asks() -> None:
    kinds = [q.kind for s in STORES for q in s.questions]
    assert sum(k in ANSWERABLE for k in kinds) >= 200
    assert kinds.count(Kind.NEVER_STORED) >= 90
    assert kinds.count(Kind.OTHER_PERSON) >= 35
    assert len(STORES) >= 8
    assert all(3 <= len(s.facts) <= 6 or 20 <= len(s.facts) <= 60 for s in STORES)


def test_a_label_that_names_no_fact_is_refused_when_the_store_loads(tmp_path: Path) -> None:
    raw = json.loads((DATA / "tiny_sam.json").read_text("utf-8"))
    raw["questions"][0]["answers"] = ["no-such-fact"]
    (tmp_path / "broken.json").write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="labelled with no fact"):
        load_stores(tmp_path)


async def test_the_runner_scores_one_tiny_store_with_the_keyword_embedder() -> None:
    store = next(s for s in STORES if s.store == "tiny_sam")
    outcomes = await run_all([store], KeywordEmbedder(), "memory")
    assert len(outcomes) == 2 * len(store.questions)
    assert {o.setting for o in outcomes} == {DEFAULTS, NO_ABSTENTION}
    never = [o for o in outcomes if o.setting == NO_ABSTENTION]
    rates = summarize(never)
    assert rates[ANSWERABLE_ALL].rates["abstained"] == 0.0
    assert rates[TINY_UNRELATED].n == 7
    # "What's the combination to open my locker?" shares "locker" with its fact alone.
    locker = next(o for o in never if "locker" in o.question.text)
    assert locker.ranked[:1] == ("x1",)
    answered = [o for o in never if o.question.answers]
    found = [any(a in o.ranked for a in o.question.answers) for o in answered]
    assert rates[ANSWERABLE_ALL].rates["top10"] == pytest.approx(100 * sum(found) / len(found))
    assert auc(outcomes) is not None


def _outcome(kind: Kind, ranked: tuple[str, ...], marked: frozenset[str] = frozenset(),
             best: float | None = None) -> Outcome:  # fmt: skip
    answers = ("new",) if kind in (*ANSWERABLE, Kind.CHANGED) else ()
    older = "old" if kind is Kind.CHANGED else None
    question = Question(user="u", kind=kind, text="?", answers=answers, older=older)
    return Outcome("s", "dev", False, DEFAULTS, question, ranked, marked, False, best)


def test_newer_first_needs_the_newer_fact_above_the_older_or_alone() -> None:
    assert newer_first(_outcome(Kind.CHANGED, ("x", "new", "old")))
    assert newer_first(_outcome(Kind.CHANGED, ("new",)))
    assert not newer_first(_outcome(Kind.CHANGED, ("old", "new")))
    assert not newer_first(_outcome(Kind.CHANGED, ("old",)))
    assert older_marked(_outcome(Kind.CHANGED, ("new", "old"), frozenset({"old"})))
    assert not older_marked(_outcome(Kind.CHANGED, ("new", "old")))


def test_the_auc_is_the_share_of_answerable_never_stored_pairs_ordered_right() -> None:
    outcomes = [
        _outcome(Kind.NAMED, ("new",), best=0.9),
        _outcome(Kind.PRONOUN, ("new",), best=0.4),
        _outcome(Kind.NEVER_STORED, ("x",), best=0.5),
        _outcome(Kind.NEVER_STORED, (), best=None),  # nothing found: 0
    ]
    assert auc(outcomes) == pytest.approx(3 / 4)
    assert auc(outcomes[:2]) is None


async def test_the_newer_fact_of_a_changed_pair_is_formed_and_stored_later() -> None:
    store = next(s for s in STORES if s.store == "assistant_maya")
    clock = FakeClock(ASKED_AT)
    config = EdenMemoryConfig(store="memory")
    stores = memory_stores()
    async with open_memory(config, store=stores, embedder=KeywordEmbedder(), clock=clock) as memory:
        await stock(memory, clock, store)
        older, newer = [await memory.admin.get_fact(store.agent_id, i) for i in ("m01", "m02")]
    assert older.formed_at < newer.formed_at
    assert older.created_at < newer.created_at
    assert (older.supersede_key, newer.supersede_key) == (None, None)  # no key: as the issue asks
