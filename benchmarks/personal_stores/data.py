"""The personal stores as written in ``data/*.json``, checked as they load.

A store is one agent's memory: facts of its users (user scope) and of the agent (agent
scope), each with the day it was said, and questions asked by one of its users, each labelled
with the facts that answer it. A label that names no fact, a fact the asker cannot see, a
never-stored question with a label or a changed pair whose newer fact is not the later one
is refused when the file is read, so a run never scores against a broken label.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, model_validator

DATA = Path(__file__).parent / "data"
# A store this small is "tiny": its unanswerable questions make the "tiny unrelated" figure.
TINY_MAX_FACTS = 6


class Kind(StrEnum):
    NAMED = "named"  # names the user: "Where is Maya employed?"
    PRONOUN = "pronoun"  # "Where is she employed?"
    FIRST_PERSON = "first_person"  # as the user asks: "Where do I work?"
    IMPERSONAL = "impersonal"  # no person: an agent-scope policy or convention
    CHANGED = "changed"  # the newer of two facts about one thing answers it
    NEVER_STORED = "never_stored"  # about the asker, nothing stored answers it
    OTHER_PERSON = "other_person"  # about someone the store never mentions


ANSWERABLE = (Kind.NAMED, Kind.PRONOUN, Kind.FIRST_PERSON, Kind.IMPERSONAL)
UNANSWERABLE = (Kind.NEVER_STORED, Kind.OTHER_PERSON)
Split = Literal["dev", "test"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StoredFact(_Frozen):
    id: str
    content: str
    scope: Literal["user", "agent"] = "user"
    user: str | None = None  # the owner of a user-scope fact
    said: date


class Question(_Frozen):
    user: str  # who asks: the search runs as this user
    kind: Kind
    text: str
    answers: tuple[str, ...] = ()  # any of these in the results is a hit
    older: str | None = None  # changed pairs: the outdated fact


class PersonalStore(_Frozen):
    store: str
    shape: str
    split: Split
    agent_id: str
    users: dict[str, str]  # user id: name
    facts: tuple[StoredFact, ...]
    questions: tuple[Question, ...]

    @property
    def tiny(self) -> bool:
        return len(self.facts) <= TINY_MAX_FACTS

    @model_validator(mode="after")
    def _labels_hold(self) -> Self:
        facts = {f.id: f for f in self.facts}
        if len(facts) != len(self.facts):
            raise ValueError(f"{self.store}: two facts share an id")
        for fact in self.facts:
            if (fact.scope == "user") != (fact.user in self.users):
                raise ValueError(f"{self.store}/{fact.id}: a user fact names a user, others none")
        for question in self.questions:
            _check_question(self, question, facts)
        return self


def _check_question(store: PersonalStore, q: Question, facts: dict[str, StoredFact]) -> None:
    where = f"{store.store}: {q.text!r}"
    if q.user not in store.users:
        raise ValueError(f"{where} is asked by an unknown user")
    if (q.kind in UNANSWERABLE) != (not q.answers):
        raise ValueError(f"{where}: answerable questions have labels, unanswerable ones none")
    if (q.kind is Kind.CHANGED) != (q.older is not None) or (q.older and len(q.answers) != 1):
        raise ValueError(f"{where}: a changed pair has one newer and one older fact")
    for label in (*q.answers, *([q.older] if q.older else [])):
        fact = facts.get(label)
        if fact is None:
            raise ValueError(f"{where} is labelled with no fact: {label}")
        if fact.scope == "user" and fact.user != q.user:
            raise ValueError(f"{where}: {label} is not visible to {q.user}")
    if q.older is not None and not facts[q.older].said < facts[q.answers[0]].said:
        raise ValueError(f"{where}: the newer fact must be said after the older")


def load_stores(folder: Path = DATA) -> list[PersonalStore]:
    """Every store of ``folder``, by name; two stores of one name are refused."""
    stores = [
        PersonalStore.model_validate_json(p.read_text("utf-8"))
        for p in sorted(folder.glob("*.json"))
    ]
    names = [s.store for s in stores]
    if len(set(names)) != len(names):
        raise ValueError("two stores share a name")
    return stores


def in_split(stores: Sequence[PersonalStore], split: str) -> list[PersonalStore]:
    """The stores of one split (``all``: every store)."""
    return [s for s in stores if split in ("all", s.split)]
