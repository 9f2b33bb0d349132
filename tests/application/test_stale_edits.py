"""No lost update: every edit names the version it was based on, and a stale one is refused.

Two people (two console tabs) read the same fact, reflection or blob and both save: the first
save wins, the second is refused with a ``StaleEditError`` that carries the newer text, and
nothing of the first is lost. A blob page opened before a consolidation cannot overwrite the
consolidated text, so the notes that consolidation absorbed live on. On every store.
"""

from __future__ import annotations

import pytest

from eden_memory.application.service import MemoryService
from eden_memory.domain.errors import InvalidInputError, StaleEditError
from eden_memory.domain.ids import ReflectionId
from eden_memory.domain.models import Reflection
from eden_memory.domain.scopes import ScopeKey
from tests.application.stores import StoreMaker
from tests.application.story import make_world
from tests.application.test_story import STORY

KEY = ScopeKey.user("nova", "alice")
NOTES = [
    "Alice prefers short answers",
    "Alice writes in Portuguese",
    "Alice works nights",
    "Alice likes examples",
]


async def _memory(make_store: StoreMaker) -> MemoryService:
    world = make_world(STORY, stores=await make_store())
    fact: dict[str, object] = {"id": "f1", "content": "Alice works at Acme Corp"}
    fact |= {"agent_id": "nova", "scope": "user", "user_id": "alice"}
    fact["formed_at"] = world.clock.now()
    report = await world.memory.admin.add_facts([fact])
    assert report.added == ["f1"], report
    return world.memory


async def _buffer(memory: MemoryService, *texts: str) -> list[Reflection]:
    now = memory.clock.now()
    notes = [
        Reflection.in_scope(
            KEY, id=ReflectionId(f"r-{n}"), content=text, formed_at=now, created_at=now
        )
        for n, text in enumerate(texts)
    ]
    await memory.admin.stores.buffers.add_reflections(notes)
    return notes


async def test_of_two_fact_edits_from_one_version_the_second_is_refused(
    make_store: StoreMaker,
) -> None:
    memory = await _memory(make_store)
    admin = memory.admin
    seen = await admin.get_fact("nova", "f1")  # both tabs show version 1
    await admin.edit_fact("nova", "f1", "Alice works at Globex", expected_version=seen.version)
    with pytest.raises(StaleEditError) as refused:
        await admin.edit_fact("nova", "f1", "Alice works at Initech", expected_version=seen.version)
    assert refused.value.current_version == 2
    assert "Alice works at Globex" in str(refused.value)
    stored = await admin.get_fact("nova", "f1")
    assert (stored.version, stored.content) == (2, "Alice works at Globex")
    history = await admin.fact_history("nova", "f1")
    assert [h.content for h in history] == ["Alice works at Acme Corp", "Alice works at Globex"]


async def test_of_two_reflection_edits_from_one_version_the_second_is_refused(
    make_store: StoreMaker,
) -> None:
    memory = await _memory(make_store)
    admin = memory.admin
    [note] = await _buffer(memory, "Alice prefers tea")
    first = await admin.edit_reflection(
        "nova", note.id, "Alice prefers green tea", expected_version=1
    )
    assert first.version == 2
    with pytest.raises(StaleEditError) as refused:
        await admin.edit_reflection("nova", note.id, "Alice prefers coffee", expected_version=1)
    assert refused.value.current == first
    assert "Alice prefers green tea" in str(refused.value)
    [stored] = await admin.list_reflections("nova", KEY)
    assert (stored.version, stored.content) == (2, "Alice prefers green tea")
    history = await admin.reflection_history("nova", note.id)
    assert [(h.version, h.content) for h in history] == [
        (1, "Alice prefers tea"),
        (2, "Alice prefers green tea"),
    ]


async def test_a_blob_page_opened_before_a_consolidation_cannot_replace_its_text(
    make_store: StoreMaker,
) -> None:
    memory = await _memory(make_store)
    admin = memory.admin
    await admin.replace_consolidated(KEY, "Alice is an engineer.", expected_version=0)
    page = await admin.get_consolidated(KEY)  # the page a person opened: version 1
    notes = await _buffer(memory, *NOTES)
    await memory.consolidate(memory.conversation("nova", "s1", ["alice"]), force=True)
    consolidated = await admin.get_consolidated(KEY)
    assert consolidated.version == 2
    with pytest.raises(StaleEditError) as refused:
        await admin.replace_consolidated(KEY, "Alice: engineer.", expected_version=page.version)
    assert refused.value.current == consolidated
    assert await admin.get_consolidated(KEY) == consolidated
    assert all(text in consolidated.content for text in NOTES)
    absorbed = await admin.list_reflections("nova", KEY, include_absorbed=True)
    assert sorted(r.id for r in absorbed if r.absorbed_into_version == 2) == sorted(
        n.id for n in notes
    )


async def test_an_edit_based_on_the_current_version_is_saved(make_store: StoreMaker) -> None:
    memory = await _memory(make_store)
    admin = memory.admin
    [note] = await _buffer(memory, "Alice prefers tea")
    blob = await admin.replace_consolidated(KEY, "Alice is an engineer.", expected_version=0)
    again = await admin.replace_consolidated(KEY, "Alice is a lead.", expected_version=blob.version)
    assert (again.version, again.content) == (2, "Alice is a lead.")
    edited = await admin.edit_reflection("nova", note.id, "Alice likes tea", expected_version=1)
    assert (await admin.edit_reflection("nova", note.id, "x y", expected_version=2)).version == 3
    assert edited.version == 2


@pytest.mark.parametrize("version", [-1, "1", True, 1.0, None, 2**64])
async def test_an_expected_version_that_is_not_a_version_is_refused(
    make_store: StoreMaker, version: object
) -> None:
    memory = await _memory(make_store)
    admin = memory.admin
    [note] = await _buffer(memory, "Alice prefers tea")
    with pytest.raises(InvalidInputError, match="expected_version"):
        await admin.edit_fact("nova", "f1", "x", expected_version=version)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="expected_version"):
        await admin.edit_reflection("nova", note.id, "x", expected_version=version)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="expected_version"):
        await admin.replace_consolidated(KEY, "x", expected_version=version)  # type: ignore[arg-type]
    assert (await admin.get_fact("nova", "f1")).version == 1
