"""ContextStore: the rendered contexts kept with their sessions, shared by every worker."""

from __future__ import annotations

from datetime import datetime, timedelta

from eden_memory.domain.ids import AgentId, SessionId, UserId
from eden_memory.domain.scopes import ActiveScopes, Scope, ScopeKey
from eden_memory.ports.stores import ContextStore, RevisionStore, StoredContext
from tests.contract.store.world import (
    S1,
    S2,
    T0,
    U1,
    U2,
    A,
    B,
    Builder,
    StoreFixtures,
    WholeBuffers,
)

ALL = frozenset({Scope.AGENT, Scope.USER, Scope.SESSION})
LONG_AGO = T0 - timedelta(days=1)


def request(
    session: SessionId = S1,
    user: UserId | None = U1,
    scopes: frozenset[Scope] = ALL,
    agent: AgentId = A,
) -> ActiveScopes:
    return ActiveScopes(agent, session, user, scopes if user else scopes - {Scope.USER})


def context(
    text: str, built_at: datetime = T0, scopes: ActiveScopes | None = None
) -> StoredContext:
    """A context built from a store nothing was written to (every revision 0)."""
    keys = len((scopes or request()).keys())
    return StoredContext(f"<MemoryContext>{text}</MemoryContext>", built_at, 2, (0,) * keys)


class ContextContract(StoreFixtures):
    async def test_nothing_is_held_before_a_save(self, contexts: ContextStore) -> None:
        assert await contexts.load_context(request()) is None

    async def test_a_saved_context_comes_back_exactly(self, contexts: ContextStore) -> None:
        # Microseconds, an expiry and text that needs care in any encoding.
        saved = StoredContext(
            "<MemoryContext>\n- [user] Zoë's café: “ünïcode” &amp; 🎉\n</MemoryContext>" * 50,
            T0 + timedelta(microseconds=123_457),
            40,
            (0, 0, 0),
            until=T0 + timedelta(hours=2, microseconds=999),
        )
        await contexts.save_context(request(), saved, LONG_AGO)
        assert await contexts.load_context(request()) == saved

    async def test_a_save_replaces_the_one_held(self, contexts: ContextStore) -> None:
        first = StoredContext("first", T0, 1, (0, 0, 0), until=T0 + timedelta(hours=1))
        await contexts.save_context(request(), first, LONG_AGO)
        second = context("second", T0 + timedelta(seconds=1))
        await contexts.save_context(request(), second, LONG_AGO)
        assert await contexts.load_context(request()) == second  # no expiry left behind

    async def test_each_session_user_and_set_of_scopes_has_its_own(
        self, contexts: ContextStore
    ) -> None:
        variants = {
            "s1 u1 all": request(),
            "s2 u1 all": request(session=S2),
            "s1 u2 all": request(user=U2),
            "s1 no user": request(user=None),
            "s1 u1 session only": request(scopes=frozenset({Scope.SESSION})),
            "other agent": request(agent=B),
        }
        for name, scopes in variants.items():
            await contexts.save_context(scopes, context(name, scopes=scopes), LONG_AGO)
        for name, scopes in variants.items():
            found = await contexts.load_context(scopes)
            assert found is not None, name
            assert found.xml == context(name).xml, name

    async def test_a_context_made_another_way_is_another_variant(
        self, contexts: ContextStore
    ) -> None:
        """The recipe (switches, FIFO settings, the user's name) is part of the key: a worker
        told another name never serves the context that showed the first."""
        await contexts.save_context(request(), context("named Alice"), LONG_AGO, "alice")
        await contexts.save_context(request(), context("named Al"), LONG_AGO, "al")
        assert await contexts.load_context(request()) is None
        alice = await contexts.load_context(request(), "alice")
        al = await contexts.load_context(request(), "al")
        assert (alice and alice.xml, al and al.xml) == (
            context("named Alice").xml,
            context("named Al").xml,
        )

    async def test_a_context_built_before_a_change_is_not_kept(
        self,
        contexts: ContextStore,
        buffers: WholeBuffers,
        revisions: RevisionStore,
        build: Builder,
    ) -> None:
        await contexts.save_context(request(), context("before"), LONG_AGO)
        note = build.reflection(ScopeKey.session(A, S1), "Alice is planning a trip")
        await buffers.add_reflections([note])  # lands while another worker was building
        late = context("built before the note", T0 + timedelta(seconds=1))
        await contexts.save_context(request(), late, LONG_AGO)
        assert await contexts.load_context(request()) == context("before")
        keys = request().keys()
        now = await revisions.revisions(keys)
        current = StoredContext("after", T0, 2, tuple(now[k] for k in keys))
        await contexts.save_context(request(), current, LONG_AGO)
        assert await contexts.load_context(request()) == current

    async def test_a_save_drops_the_agents_contexts_built_before_the_bound(
        self, contexts: ContextStore
    ) -> None:
        await contexts.save_context(request(session=S2), context("old", T0), LONG_AGO)
        await contexts.save_context(request(agent=B), context("old, other agent", T0), LONG_AGO)
        later = T0 + timedelta(minutes=10)
        await contexts.save_context(request(), context("new", later), T0 + timedelta(minutes=5))
        assert await contexts.load_context(request(session=S2)) is None
        assert await contexts.load_context(request(agent=B)) is not None
        assert await contexts.load_context(request()) == context("new", later)

    async def test_dropping_an_agents_contexts_leaves_other_agents(
        self, contexts: ContextStore
    ) -> None:
        others = request(session=S2, user=U2)
        for scopes in (request(), others, request(agent=B)):
            await contexts.save_context(scopes, context("held"), LONG_AGO)
        assert await contexts.drop_contexts(A) == 2
        assert await contexts.load_context(request()) is None
        assert await contexts.load_context(others) is None
        assert await contexts.load_context(request(agent=B)) == context("held")
        assert await contexts.drop_contexts(A) == 0
