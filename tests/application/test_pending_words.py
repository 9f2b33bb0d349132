"""Words not formed yet stay their authors' when the session's users change (issue 40, 2 and 3).

Formation reads the session's users when it runs, which can be long after the words were
recorded: an erasure, an agent-only turn or a group that changed may lie in between. None of
them may file one user's words as another's memory, strip their author from them, or leave
them behind when their author is erased.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from eden_memory.domain.ids import MessageId
from eden_memory.domain.models import Fact, Message, Role
from eden_memory.domain.scopes import Scope
from tests.application.stores import StoreMaker
from tests.application.story import Story, World, make_world

ALICE_SAYS = "I water the plants on Mondays"
BOB_SAYS = "my diagnosis is Zetavirus"
AGENT_TO_BOB = "Sorry to hear about the Zetavirus, bob"
AGENT_TO_ALICE = "Noted: the ferns get water on Mondays"

STORY = Story(
    facts={
        ALICE_SAYS: [("waters plants on Mondays", "user"), ("plants need water", "agent")],
        BOB_SAYS: [("has Zetavirus", "user"), ("Zetavirus is going around", "agent")],
        AGENT_TO_BOB: [("Zetavirus sympathy", "user"), ("Zetavirus reply", "agent")],
        AGENT_TO_ALICE: [("ferns on Mondays", "user"), ("ferns reply", "agent")],
    },
    notes={
        BOB_SAYS: [("user", "worried about Zetavirus")],
        AGENT_TO_BOB: [("user", "comforted about Zetavirus")],
        ALICE_SAYS: [("user", "likes plants")],
    },
)


Line = tuple[Role, str | None, str]  # who speaks, their author id, what they say


async def _world(make_store: StoreMaker) -> World:
    return make_world(STORY, stores=await make_store())


def _said(world: World, *lines: Line) -> list[Message]:
    now = world.clock.now()
    return [
        Message(
            id=MessageId(f"m-{now:%H%M%S}-{i}"),
            role=role,
            text=text,
            sent_at=now + timedelta(seconds=i),
            author_id=author,
        )
        for i, (role, author, text) in enumerate(lines)
    ]


async def _facts(world: World) -> list[Fact]:
    return await world.memory.admin.list_facts("nova", status=None, limit=100)


async def _formed_after(world: World, *turns: tuple[list[str], list[Line]]) -> dict[str, Fact]:
    """Each turn (its users, its lines) recorded in session s1 a minute apart, then the
    session formed: the facts by their text."""
    for users, lines in turns:
        await world.memory.record_messages(
            world.memory.conversation("nova", "s1", users), _said(world, *lines)
        )
        world.clock.advance(minutes=1)
    await world.memory.end_session(world.memory.conversation("nova", "s1"))
    return {f.content: f for f in await _facts(world)}


async def _user_memory(world: World, user: str) -> str:
    """Everything of ``user``'s own scope: facts, notes, and what their context in a new
    session shows beside the agent's shared facts."""
    facts = [f.content for f in await _facts(world) if f.user_id == user]
    notes = await world.memory.admin.list_reflections("nova", include_absorbed=True)
    mine = [r.content for r in notes if r.key.scope is Scope.USER and r.key.user_id == user]
    context = await world.memory.get_context(world.memory.conversation("nova", "fresh", [user]))
    shown = [line for line in context.xml.splitlines() if "[agent]" not in line]
    return "\n".join([*facts, *mine, *shown])


async def test_erasing_a_member_never_forms_the_groups_pending_words_as_anothers(
    make_store: StoreMaker,
) -> None:
    world = await _world(make_store)
    group = world.memory.conversation("nova", "g", ["alice", "bob"])
    await world.memory.record_messages(
        group,
        _said(
            world,
            (Role.USER, "alice", ALICE_SAYS),
            (Role.USER, "bob", BOB_SAYS),
            (Role.AGENT, "nova", AGENT_TO_BOB),
        ),
    )
    report = await world.memory.admin.erase_user("nova", "bob")
    assert (report.messages_in_group_sessions, report.pending_context_dropped) == (1, 1)
    await world.memory.end_session(world.memory.conversation("nova", "g", ["alice"]))
    everything = "\n".join(f.content for f in await _facts(world))
    assert "Zetavirus" not in everything
    assert "Zetavirus" not in await _user_memory(world, "alice")
    # What alice said herself is still hers, and only hers.
    [plants] = [f for f in await _facts(world) if f.content == "waters plants on Mondays"]
    assert (plants.user_id, plants.source_user_ids) == ("alice", ("alice",))


async def test_words_by_a_named_author_in_a_session_of_nobody_stay_that_authors(
    make_store: StoreMaker,
) -> None:
    world = await _world(make_store)
    nobody = world.memory.conversation("nova", "s1", [])
    await world.memory.record_messages(nobody, _said(world, (Role.USER, "bob", BOB_SAYS)))
    alice = world.memory.conversation("nova", "s1", ["alice"])
    await world.memory.record_messages(alice, _said(world, (Role.USER, "alice", ALICE_SAYS)))
    await world.memory.end_session(alice)
    assert "Zetavirus" not in await _user_memory(world, "alice")
    by_text = {f.content: f for f in await _facts(world)}
    assert by_text["Zetavirus is going around"].source_user_ids == ("bob",)
    await world.memory.admin.erase_user("nova", "bob")
    assert "Zetavirus" not in "\n".join(f.content for f in await _facts(world))


async def test_an_agent_only_turn_does_not_strip_the_pending_words_of_their_user(
    make_store: StoreMaker,
) -> None:
    world = await _world(make_store)
    alice = world.memory.conversation("nova", "s1", ["alice"])
    await world.memory.record_messages(alice, _said(world, (Role.USER, None, ALICE_SAYS)))
    world.clock.advance(minutes=1)
    agent_only = world.memory.conversation("nova", "s1", [])
    await world.memory.record_messages(agent_only, _said(world, (Role.AGENT, "nova", "Noted!")))
    await world.memory.end_session(agent_only)
    by_text = {f.content: f for f in await _facts(world)}
    assert by_text["plants need water"].source_user_ids == ("alice",)
    assert by_text["waters plants on Mondays"].user_id == "alice"
    await world.memory.admin.erase_user("nova", "alice")
    assert await _facts(world) == []


async def test_a_member_who_left_keeps_their_pending_words(make_store: StoreMaker) -> None:
    world = await _world(make_store)
    first = world.memory.conversation("nova", "g", ["alice", "bob"])
    await world.memory.record_messages(first, _said(world, (Role.USER, "bob", BOB_SAYS)))
    world.clock.advance(minutes=1)
    then = world.memory.conversation("nova", "g", ["alice", "carol"])
    await world.memory.record_messages(then, _said(world, (Role.USER, "alice", ALICE_SAYS)))
    await world.memory.end_session(then)
    by_text = {f.content: f for f in await _facts(world)}
    assert by_text["Zetavirus is going around"].source_user_ids == ("bob",)
    assert by_text["plants need water"].source_user_ids == ("alice",)
    await world.memory.admin.erase_user("nova", "bob")
    assert "Zetavirus" not in "\n".join(f.content for f in await _facts(world))


@pytest.mark.parametrize("author", ["bob", None])
async def test_words_said_before_a_user_joined_never_form_that_users_memory(
    make_store: StoreMaker, author: str | None
) -> None:
    """A session of nobody learns its user, but words said there before she came, by a
    named author or by nobody named, stay out of her memory and her provenance."""
    world = await _world(make_store)
    nobody = world.memory.conversation("nova", "s1", [])
    await world.memory.record_messages(nobody, _said(world, (Role.USER, author, BOB_SAYS)))
    alice = world.memory.conversation("nova", "s1", ["alice"])
    await world.memory.start_session(alice)
    await world.memory.end_session(alice)
    assert "Zetavirus" not in await _user_memory(world, "alice")
    by_text = {f.content: f for f in await _facts(world)}
    assert "alice" not in by_text["Zetavirus is going around"].source_user_ids


async def test_words_said_alone_with_no_author_stay_the_speakers_after_another_joins(
    make_store: StoreMaker,
) -> None:
    world = await _world(make_store)
    by_text = await _formed_after(
        world,
        (["alice"], [(Role.USER, None, ALICE_SAYS)]),
        (["alice", "bob"], [(Role.USER, "bob", BOB_SAYS)]),
    )
    assert by_text["plants need water"].source_user_ids == ("alice",)
    assert "plants" not in await _user_memory(world, "bob")
    report = await world.memory.admin.erase_user("nova", "alice")
    assert report.messages_in_group_sessions == 1  # her words, formed, go with her
    assert "plants" not in "\n".join(f.content for f in await _facts(world))
    notes = await world.memory.admin.list_reflections("nova", include_absorbed=True)
    assert not [n for n in notes if "plants" in n.content]
    for fact in await _facts(world):
        assert "alice" not in fact.source_user_ids, fact


async def test_the_agents_reply_is_credited_to_who_heard_it_not_to_who_joined_later(
    make_store: StoreMaker,
) -> None:
    world = await _world(make_store)
    said_to_alice: list[Line] = [
        (Role.USER, "alice", ALICE_SAYS),
        (Role.AGENT, "nova", AGENT_TO_ALICE),
    ]
    by_text = await _formed_after(
        world, (["alice"], said_to_alice), (["alice", "bob"], [(Role.USER, "bob", BOB_SAYS)])
    )
    assert by_text["ferns reply"].source_user_ids == ("alice",)
    assert "ferns" not in await _user_memory(world, "bob")
    await world.memory.admin.erase_user("nova", "alice")
    assert "ferns" not in "\n".join(f.content for f in await _facts(world))


async def test_what_the_agent_said_before_any_user_came_is_credited_to_nobody(
    make_store: StoreMaker,
) -> None:
    """The agent's words while the session named nobody quote no user of it: no user is
    their source, not even the one who came after (her erasure need not find them)."""
    world = await _world(make_store)
    by_text = await _formed_after(
        world,
        ([], [(Role.AGENT, "nova", AGENT_TO_BOB)]),
        (["alice"], [(Role.USER, "alice", ALICE_SAYS)]),
    )
    assert by_text["Zetavirus reply"].source_user_ids == ()
    assert by_text["plants need water"].source_user_ids == ("alice",)
    assert by_text["waters plants on Mondays"].user_id == "alice"
