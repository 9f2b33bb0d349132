"""Two tabs, one record: every edit form carries the version its page showed, and a save
based on an older version is refused with the newer text on the page and the typed text kept.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from starlette.testclient import TestClient

from eden_memory.domain.ids import FactId, ReflectionId
from eden_memory.domain.scopes import ScopeKey
from tests.application.story import World
from tests.console.client import ORIGIN, console, csrf_of, sample_world, signed_in

FACT_PAGE = "/fact?agent=nova&id=f-email"
USER_PAGE = "/user?agent=nova&user=alice"
BLOB_PAGE = "/blob?agent=nova&scope=user&user=alice"
ALICE = ScopeKey.user("nova", "alice")


@pytest.fixture
def world() -> World:
    return sample_world()


def version_after(html: str, marker: str) -> str:
    """The version hidden in the form that follows ``marker`` on the page."""
    start = html.index(marker)
    found = re.search(r'name="version" value="(\d+)"', html[start:])
    assert found is not None, f"the form after {marker!r} carries no version"
    return found.group(1)


def save(client: TestClient, html: str, path: str, form: dict[str, str]) -> tuple[int, str]:
    answer = client.post(path, data={"csrf": csrf_of(html), **form}, headers={"origin": ORIGIN})
    if answer.status_code == 303:
        return 303, client.get(answer.headers["location"]).text
    return answer.status_code, answer.text


def test_two_tabs_editing_one_fact_the_second_save_is_refused(world: World) -> None:
    client = signed_in(console(world))
    tab1, tab2 = client.get(FACT_PAGE).text, client.get(FACT_PAGE).text
    form = {"agent": "nova", "id": "f-email", "version": version_after(tab1, 'id="edit-fact"')}
    status, _ = save(
        client, tab1, "/fact/edit", form | {"content": "Alice's email is a@one.example"}
    )
    assert status == 303
    status, html = save(
        client, tab2, "/fact/edit", form | {"content": "Alice's email is b@two.example"}
    )
    assert status == 409
    assert "changed since" in html
    assert "a@one.example" in html  # the newer text, shown
    assert ">Alice&#39;s email is b@two.example</textarea>" in html  # the typed text, kept
    assert version_after(html, 'id="edit-fact"') == "2"  # saving again is a deliberate choice
    [fact] = asyncio.run(world.stores.facts.get_facts([FactId("f-email")]))
    assert (fact.version, fact.content) == (2, "Alice's email is a@one.example")


def test_two_tabs_editing_one_reflection_the_second_save_is_refused(world: World) -> None:
    client = signed_in(console(world))
    tab1, tab2 = client.get(USER_PAGE).text, client.get(USER_PAGE).text
    version = version_after(tab1, 'value="r-alice-1"')
    form = {"agent": "nova", "id": "r-alice-1", "version": version, "back": USER_PAGE}
    status, html = save(
        client, tab1, "/reflection/edit", form | {"content": "Alice writes Galician"}
    )
    assert status == 303
    assert "Alice writes Galician" in html
    status, html = save(client, tab2, "/reflection/edit", form | {"content": "Alice writes Basque"})
    assert status == 409
    assert "changed since" in html
    assert "Alice writes Galician" in html
    assert ">Alice writes Basque</textarea>" in html
    assert "Alice prefers replies in Portuguese" in html  # its history, on its page
    stored = asyncio.run(world.stores.buffers.get_reflection(ReflectionId("r-alice-1")))
    assert stored is not None
    assert (stored.version, stored.content) == (2, "Alice writes Galician")


def test_a_reflection_page_shows_its_history(world: World) -> None:
    client = signed_in(console(world))
    page = client.get(USER_PAGE).text
    form = {"agent": "nova", "id": "r-alice-1", "version": "1", "back": USER_PAGE}
    save(client, page, "/reflection/edit", form | {"content": "Alice writes Galician"})
    html = client.get("/reflection?agent=nova&id=r-alice-1").text
    history = html[html.index('<ol class="history">') :]
    old, new = history.index("Alice prefers replies in Portuguese"), history.index("Galician")
    assert history.index("v1") < old < history.index("v2") < new
    assert "console edit" in history


def test_two_tabs_replacing_one_blob_the_second_save_is_refused(world: World) -> None:
    client = signed_in(console(world))
    tab1, tab2 = client.get(BLOB_PAGE).text, client.get(BLOB_PAGE).text
    version = version_after(tab1, 'id="replace-blob"')
    form = {"agent": "nova", "scope": "user", "user": "alice", "understood": "yes"}
    form |= {"version": version}
    status, _ = save(client, tab1, "/blob/replace", form | {"content": "Alice: Porto."})
    assert status == 303
    status, html = save(client, tab2, "/blob/replace", form | {"content": "Alice: Lisbon."})
    assert status == 409
    assert "Alice: Porto." in html
    assert ">Alice: Lisbon.</textarea>" in html
    blob = asyncio.run(world.memory.admin.get_consolidated(ALICE))
    assert (blob.version, blob.content) == (2, "Alice: Porto.")


def test_a_blob_page_opened_before_a_consolidation_cannot_overwrite_it(world: World) -> None:
    client = signed_in(console(world))
    page = client.get(BLOB_PAGE).text
    assert version_after(page, 'id="replace-blob"') == "1"
    conversation = world.memory.conversation("nova", "s-alice-1", ["alice"])
    asyncio.run(world.memory.consolidate(conversation, force=True))
    consolidated = asyncio.run(world.memory.admin.get_consolidated(ALICE))
    assert consolidated.version == 2
    assert "Alice prefers replies in Portuguese" in consolidated.content  # an absorbed note
    form = {"agent": "nova", "scope": "user", "user": "alice", "understood": "yes"}
    form |= {"version": "1", "content": "Alice is an engineer in Porto."}
    status, html = save(client, page, "/blob/replace", form)
    assert status == 409
    assert "Alice prefers replies in Portuguese" in html  # the consolidated text, shown
    assert ">Alice is an engineer in Porto.</textarea>" in html
    assert asyncio.run(world.memory.admin.get_consolidated(ALICE)) == consolidated
    notes = asyncio.run(world.memory.admin.list_reflections("nova", ALICE, include_absorbed=True))
    assert {(n.id, n.absorbed_into_version) for n in notes} >= {
        ("r-alice-1", 2),
        ("r-alice-2", 2),
    }


@pytest.mark.parametrize(
    ("path", "form", "page"),
    [
        ("/fact/edit", {"agent": "nova", "id": "f-email", "content": "x"}, FACT_PAGE),
        ("/reflection/edit", {"agent": "nova", "id": "r-alice-1", "content": "x"}, USER_PAGE),
        (
            "/blob/replace",
            {
                "agent": "nova",
                "scope": "user",
                "user": "alice",
                "content": "x",
                "understood": "yes",
            },
            BLOB_PAGE,
        ),
    ],
)
def test_an_edit_without_the_version_it_was_based_on_is_refused(
    world: World, path: str, form: dict[str, str], page: str
) -> None:
    client = signed_in(console(world))
    status, html = save(client, client.get(page).text, path, form)
    assert status == 400
    assert "version" in html
    [fact] = asyncio.run(world.stores.facts.get_facts([FactId("f-email")]))
    assert fact.version == 1
    blob = asyncio.run(world.memory.admin.get_consolidated(ALICE))
    assert blob.version == 1
