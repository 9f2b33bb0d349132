"""The figures of a run: a table per split (a row per question kind, a block of columns per
setting), or the same as JSON with every question's outcome for whoever tunes on ``dev``."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from benchmarks.personal_stores.data import PersonalStore
from benchmarks.personal_stores.runner import DEFAULTS, Outcome
from benchmarks.personal_stores.scores import GROUPS, METRICS, Group, auc, summarize

_HEADS = ("top1", "top3", "top10", "abst.", "empty", "newer", "marked")
_WIDTH = 7


def split_figures(split: str, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """One split's rates per setting run, its seconds per search, and its AUC (the best
    relevance is the same under every setting: abstention only decides whether the hits are
    returned)."""
    mine = [o for o in outcomes if split in ("all", o.split)]
    names = list(dict.fromkeys(o.setting for o in mine))
    by_name = {name: [o for o in mine if o.setting == name] for name in names}
    return {
        "auc": auc(by_name.get(DEFAULTS, [])),
        "settings": {name: summarize(done) for name, done in by_name.items()},
        "seconds": {
            name: statistics.fmean(o.seconds for o in done) for name, done in by_name.items()
        },
    }


def table(split: str, stores: Sequence[PersonalStore], figures: dict[str, Any]) -> list[str]:
    names = ", ".join(s.store for s in stores if split in ("all", s.split))
    block = len(_HEADS) * _WIDTH
    lines = [f"split {split}: {names}"]
    settings: dict[str, dict[str, Group]] = figures["settings"]
    lines.append(f"{'':<22}{'':>5}" + "".join(f"  | {name:^{block}}" for name in settings))
    lines.append(
        f"{'question kind':<22}{'n':>5}" + "  | ".join(["", *[_heads() for _ in settings]])
    )
    for group in GROUPS:
        n = next(iter(settings.values()))[group].n
        cells = "  | ".join(["", *[_cells(by_kind[group]) for by_kind in settings.values()]])
        lines.append(f"{group:<22}{n:>5}{cells}")
    value = figures["auc"]
    shown = "n/a" if value is None else f"{value:.3f}"
    lines.append(f"AUC of the best hit's relevance, answerable vs never-stored: {shown}")
    each = ", ".join(f"{name} {s:.3f}" for name, s in figures["seconds"].items())
    lines.append(f"seconds per search: {each}")
    return lines


def _heads() -> str:
    return "".join(f"{h:>{_WIDTH}}" for h in _HEADS)


def _cells(group: Group) -> str:
    return "".join(_cell(group.rates[m]) for m in METRICS)


def _cell(rate: float | None) -> str:
    return f"{'-':>{_WIDTH}}" if rate is None else f"{rate:>{_WIDTH}.1f}"


def as_json(figures: dict[str, dict[str, Any]], outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The figures of every split shown, and every question's outcome under each setting."""
    splits = {
        split: {
            "auc": f["auc"],
            "seconds_per_search": f["seconds"],
            "settings": {
                name: {g: {"n": v.n, **v.rates} for g, v in groups.items()}
                for name, groups in f["settings"].items()
            },
        }
        for split, f in figures.items()
    }
    return {"splits": splits, "questions": [_question(o) for o in outcomes]}


def _question(o: Outcome) -> dict[str, Any]:
    return {
        "store": o.store,
        "split": o.split,
        "setting": o.setting,
        "user": o.question.user,
        "kind": o.question.kind.value,
        "text": o.question.text,
        "answers": list(o.question.answers),
        "older": o.question.older,
        "ranked": list(o.ranked),
        "marked": sorted(o.marked),
        "abstained": o.abstained,
        "best_relevance": o.best_relevance,
        "seconds": o.seconds,
    }
