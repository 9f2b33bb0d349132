"""Generated turns with changing users, erasures and formations: no user's words are formed
as another's memory, shown in another's context, or left behind by their erasure.

Each user message says ``w<n> by <author>``; the scripted model turns it into a private fact,
a shared (agent) fact and a private note that quote it, so a leak names its author. The
agent's replies quote nobody. Every user message names its author (as every integration
does): words with no author are the session's users' when formed (``docs/decisions.md``).
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from hypothesis import given, settings
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

turns = st.tuples(
    st.just("turn"),
    st.sampled_from(SESSIONS),
    st.lists(st.sampled_from(USERS), max_size=3, unique=True),
    st.lists(st.sampled_from(USERS), min_size=1, max_size=3),
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

    async def turn(self, session: str, users: list[str], authors: list[str], reply: bool) -> None:
        conv = self.world.memory.conversation("nova", session, users)
        now = self.world.clock.now()
        batch = []
        for author in authors:
            n = len(self.said) + 1
            text = f"w{n} by {author}"
            self.model.teach(text)
            batch.append(
                Message(id=f"m{n}", role=Role.USER, text=text, sent_at=now, author_id=author)
            )
            self.said[n] = author
        if reply:
            batch.append(Message(id=f"r{len(self.said)}", role=Role.AGENT, text="ok", sent_at=now))
        try:
            await self.world.memory.record_messages(conv, batch, background=False)
        except SessionUsersError:
            for n in range(len(self.said) - len(authors) + 1, len(self.said) + 1):
                del self.said[n]  # refused: never recorded
        self.world.clock.advance(minutes=1)

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


@settings(max_examples=60, deadline=None)
@given(steps)
def test_no_pending_words_reach_anyone_but_their_author_on_the_memory_store(
    plan: list[tuple[object, ...]],
) -> None:
    asyncio.run(_run_on(plan, "memory"))


@settings(max_examples=15, deadline=None)
@given(steps)
def test_no_pending_words_reach_anyone_but_their_author_on_sqlite(
    plan: list[tuple[object, ...]],
) -> None:
    asyncio.run(_run_on(plan, "sqlite"))
