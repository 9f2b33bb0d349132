"""What the outcomes of one split and one setting add up to: rates per question kind.

* answerable kinds: a *hit at k* when a labelled fact is among the first k results;
  *abstained* when hits were found and none was returned as relevant enough;
* every kind: *empty* when nothing came back (for unanswerable questions, the right answer);
* changed pairs: *newer first* when the newer fact is returned above the older one (or
  without it), *older marked* when the older one is returned marked as outdated by a newer;
* the AUC of the best hit's relevance (whether returned or not, 0 when nothing was found)
  between answerable and never-stored questions of the same users: the chance that an
  answerable question's best hit is more relevant than a never-stored one's (ties half).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.personal_stores.data import ANSWERABLE, Kind
from benchmarks.personal_stores.runner import Outcome

ANSWERABLE_ALL = "answerable (all)"
TINY_UNRELATED = "tiny unrelated"
GROUPS = (*(k.value for k in ANSWERABLE), ANSWERABLE_ALL, Kind.NEVER_STORED.value,
          Kind.OTHER_PERSON.value, TINY_UNRELATED, Kind.CHANGED.value)  # fmt: skip
METRICS = ("top1", "top3", "top10", "abstained", "empty", "newer_first", "older_marked")


@dataclass(frozen=True)
class Group:
    """The rates of one group of questions (percent; None where a rate does not apply)."""

    n: int
    rates: dict[str, float | None]


def group_of(outcomes: Sequence[Outcome], group: str) -> list[Outcome]:
    if group == ANSWERABLE_ALL:
        return [o for o in outcomes if o.question.kind in ANSWERABLE]
    if group == TINY_UNRELATED:
        return [o for o in outcomes if o.tiny and not o.question.answers]
    return [o for o in outcomes if o.question.kind == group]


def summarize(outcomes: Sequence[Outcome]) -> dict[str, Group]:
    """Every group's rates, over the outcomes of one setting."""
    return {group: _rates(group_of(outcomes, group)) for group in GROUPS}


def _rates(outcomes: Sequence[Outcome]) -> Group:
    if not outcomes:
        return Group(0, dict.fromkeys(METRICS))
    kind = outcomes[0].question.kind
    answered = kind in ANSWERABLE
    changed = kind is Kind.CHANGED
    rates: dict[str, float | None] = {
        f"top{k}": _pct(outcomes, _hit(k)) if answered or changed else None for k in (1, 3, 10)
    }
    rates["abstained"] = _pct(outcomes, lambda o: o.abstained) if answered or changed else None
    rates["empty"] = _pct(outcomes, lambda o: not o.ranked)
    rates["newer_first"] = _pct(outcomes, newer_first) if changed else None
    rates["older_marked"] = _pct(outcomes, older_marked) if changed else None
    return Group(len(outcomes), rates)


def _pct(outcomes: Sequence[Outcome], holds: Callable[[Outcome], bool]) -> float:
    return 100 * statistics.fmean(holds(o) for o in outcomes)


def _hit(k: int) -> Callable[[Outcome], bool]:
    def hit(outcome: Outcome) -> bool:
        return any(label in outcome.ranked[:k] for label in outcome.question.answers)

    return hit


def newer_first(outcome: Outcome) -> bool:
    newer, older = outcome.question.answers[0], outcome.question.older
    if newer not in outcome.ranked:
        return False
    return older not in outcome.ranked or outcome.ranked.index(newer) < outcome.ranked.index(older)


def older_marked(outcome: Outcome) -> bool:
    return outcome.question.older in outcome.marked


def auc(outcomes: Sequence[Outcome]) -> float | None:
    """How well the best hit's relevance tells answerable from never-stored questions."""
    best = [o.best_relevance or 0.0 for o in outcomes if o.question.kind in ANSWERABLE]
    none = [o.best_relevance or 0.0 for o in outcomes if o.question.kind is Kind.NEVER_STORED]
    if not best or not none:
        return None
    wins = sum((b > n) + 0.5 * (b == n) for b in best for n in none)
    return wins / (len(best) * len(none))
