"""Generated turns with changing users, erasures and formations: no user's words are formed
as another's memory, shown in another's context, or left behind by their erasure.

Each user message says ``w<n> by <speaker>``; the scripted model turns it into a private fact,
a shared (agent) fact and a private note that quote it, so a leak names its speaker. Some
user messages name their author, some name none (said in a turn of one user, whose words
they are); the agent's reply in a turn of one user quotes that user's last word of the turn
("noted w<n> by <user>"), in other turns it quotes nobody. Words with no author in a group,
and the agent's replies to a group, are the group's
(``docs/record/decisions/scopes-and-sessions.md``): not generated.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from hypothesis import example, given, settings
from hypothesis import strategies as st

from eden_memory.adapters.stores.sqlite import open_sqlite
from eden_memory.domain.errors import SessionUsersError
from eden_memory.domain.models import Message, Role
from eden_memory.domain.scopes import Scope
from eden_memory.testing import memory_stores
from tests.application.story import Story, World, make_world

USERS = ("alice", "bob", "carol")
SESSIONS = ("s1", "s2")
WORD = re.compile(r"w(\d+) by (\w+)")
UNAUTHORED = ""  # a user message that names no author

turns = st.tuples(
    st.just("turn"),
    st.sampled_from(SESSIONS),
    st.lists(st.sampled_from(USERS), max_size=3, unique=True),
    st.lists(st.sampled_from((*USERS, UNAUTHORED)), min_size=1, max_size=3),
    st.booleans(),
)
steps = st.lists(
    st.one_of(
        turns,
        turns,
        st.tuples(st.just("form"), st.sampled_from(SESSIONS)),
        st.tuples(st.just("erase"), st.sampled_from(USERS)),
    ),
    min_size=1,
    max_size=10,
)


class Words(Story):
    """The lookup model, taught each word as it is said."""

    def teach(self, text: str) -> None:
        self.facts[text] = [(f"private {text}", "user"), (f"shared {text}", "agent")]
        self.notes[text] = [("user", f"note {text}")]


@dataclass
class Run:
    world: World
    model: Words
    said: dict[int, str] = field(default_factory=dict)  # word number -> author
    erased: set[int] = field(default_factory=set)
    replies: int = 0

    async def turn(self, session: str, users: list[str], authors: list[str], reply: bool) -> None:
        conv = self.world.memory.conversation("nova", session, users)
        alone = users[0] if len(users) == 1 else None
        batch, numbers = [], []
        for author in authors:
            speaker = author or alone
            if speaker is None:
                continue  # words with no author in a group are the group's: not generated
            n = len(self.said) + 1
            batch.append(self._line(f"m{n}", Role.USER, f"w{n} by {speaker}", author or None))
            self.said[n] = speaker
            numbers.append(n)
        if reply:
            quoted = [n for n in numbers if self.said[n] == alone]
            text = f"noted w{quoted[-1]} by {alone}" if quoted else "ok"
            self.replies += 1
            batch.append(self._line(f"r{self.replies}", Role.AGENT, text, None))
        try:
            await self.world.memory.record_messages(conv, batch, background=False)
        except SessionUsersError:
            for n in numbers:
                del self.said[n]  # refused: never recorded
        self.world.clock.advance(minutes=1)

    def _line(self, id: str, role: Role, text: str, author: str | None) -> Message:
        self.model.teach(text)
        now = self.world.clock.now()
        return Message(id=id, role=role, text=text, sent_at=now, author_id=author)

    async def erase(self, user: str) -> None:
        await self.world.memory.admin.erase_user("nova", user)
        self.erased |= {n for n, author in self.said.items() if author == user}


async def _play(plan: list[tuple[object, ...]], world: World, model: Words) -> Run:
    run = Run(world, model)
    for step in plan:
        if step[0] == "turn":
            session, users, authors, reply = cast(tuple[str, list[str], list[str], bool], step[1:])
            await run.turn(session, users, authors, reply)
        elif step[0] == "form":
            await world.memory.end_session(world.memory.conversation("nova", str(step[1])))
        else:
            await run.erase(str(step[1]))
    for session in SESSIONS:
        await world.memory.end_session(world.memory.conversation("nova", session))
    return run


def _words(text: str) -> list[tuple[int, str]]:
    return [(int(n), author) for n, author in WORD.findall(text)]


async def _check(run: Run) -> None:
    memory = run.world.memory
    for fact in await memory.admin.list_facts("nova", status=None, limit=1000):
        for n, author in _words(fact.content):
            assert n not in run.erased, fact
            assert fact.source_user_ids == (author,), fact  # provenance follows the author
            if fact.scope is Scope.USER:
                assert fact.user_id == author, fact
    for note in await memory.admin.list_reflections("nova", include_absorbed=True):
        for n, author in _words(note.content):
            assert n not in run.erased, note
            assert author in note.source_user_ids, note
            if note.key.scope is Scope.USER:
                assert note.key.user_id == author, note
    for user in USERS:
        xml = (await memory.get_context(memory.conversation("nova", "fresh", [user]))).xml
        for line in xml.splitlines():
            for n, author in _words(line):
                assert n not in run.erased, line
                assert "shared" in line or author == user, (user, line)


async def _run_on(plan: list[tuple[object, ...]], kind: str) -> None:
    model = Words()
    with tempfile.TemporaryDirectory() as folder:
        stores = memory_stores() if kind == "memory" else await open_sqlite(Path(folder) / "m.db")
        try:
            world = make_world(model, stores=stores)
            await _check(await _play(plan, world, model))
        finally:
            await stores.close()


# Found in review: words with no author, and the agent's reply quoting them, said to alice
# alone and formed after bob joined, were credited to bob too and outlived alice's erasure.
JOINED_LATER = [
    ("turn", "s1", ["alice"], [UNAUTHORED, "alice"], True),
    ("turn", "s1", ["alice", "bob"], ["bob"], False),
    ("form", "s1"),
]


@settings(max_examples=60, deadline=None)
@given(steps)
@example(JOINED_LATER)
@example([*JOINED_LATER, ("erase", "alice")])
def test_no_pending_words_reach_anyone_but_their_author_on_the_memory_store(
    plan: list[tuple[object, ...]],
) -> None:
    asyncio.run(_run_on(plan, "memory"))


@settings(max_examples=15, deadline=None)
@given(steps)
@example([*JOINED_LATER, ("erase", "alice")])
def test_no_pending_words_reach_anyone_but_their_author_on_sqlite(
    plan: list[tuple[object, ...]],
) -> None:
    asyncio.run(_run_on(plan, "sqlite"))
