"""The console's pages and actions, in-process: what a person sees and what a click changes."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta

import pytest

from eden_memory.demo.console_sample import MARKUP
from eden_memory.domain.ids import FactId
from eden_memory.domain.scopes import AgentMemoryConfig
from tests.application.story import World
from tests.console.client import ORIGIN, console, csrf_of, sample_world, signed_in

PAGES = [
    "/",
    "/agent?agent=nova",
    "/user?agent=nova&user=alice",
    "/session?agent=nova&session=s-alice-1",
    "/facts?agent=nova&status=all",
    "/fact?agent=nova&id=f-markup",
    "/search?agent=nova&user=alice&q=Alice+wrote+script",
    "/context?agent=nova&user=alice&session=s-alice-1",
    "/blob?agent=nova&scope=user&user=alice",
    "/erase?agent=nova&user=alice",
]


@pytest.fixture
def world() -> World:
    return sample_world()


@pytest.mark.parametrize("path", PAGES)
def test_every_page_shows_stored_markup_as_text(world: World, path: str) -> None:
    html = signed_in(console(world)).get(path).text
    assert "<script>" not in html
    assert "<b>bold</b>" not in html
    if "erase" not in path and path != "/":
        # shown as text; the context's XML escapes it once more, as the prompt holds it
        assert "&lt;script&gt;alert(" in html or "&amp;lt;script&amp;gt;alert(" in html


def test_the_agent_page_shows_blob_buffer_owners_stats_and_newest_facts(world: World) -> None:
    html = signed_in(console(world)).get("/agent?agent=nova").text
    assert "Nova is an operations assistant" in html
    assert "version 1" in html
    assert "of 1200 words" in html
    assert "Awaiting consolidation: 1 of 10" in html
    assert "Users like short answers with one example" in html
    assert 'user=alice"' in html
    assert 'user=bob"' in html
    assert "session=s-alice-1" in html
    assert html.index("Alice&#39;s email") < html.index("Deploys to production")  # newest first


def test_the_user_page_shows_their_memory_sessions_and_facts_only(world: World) -> None:
    html = signed_in(console(world)).get("/user?agent=nova&user=alice").text
    assert "Alice is an engineer in Porto" in html
    assert "Awaiting consolidation: 2 of 4" in html
    assert "s-alice-1" in html
    assert "Alice moved to Porto" in html
    assert "Bob drinks" not in html


def test_the_session_page_links_the_users_of_its_stored_profile(world: World) -> None:
    html = signed_in(console(world)).get("/session?agent=nova&session=s-alice-1").text
    assert 'users: <a href="/user?agent=nova&amp;user=alice">alice</a>' in html


def test_a_retired_fact_shows_what_superseded_it(world: World) -> None:
    client = signed_in(console(world))
    listing = client.get("/facts?agent=nova&status=retired").text
    assert "Alice lives in Lisbon" in listing
    assert "Alice moved to Porto" not in listing
    html = client.get("/fact?agent=nova&id=f-city").text
    assert "retired" in html
    assert "contradicted" in html
    assert 'id=f-city-new">Alice moved to Porto in May</a>' in html


def test_facts_page_by_keyset_newest_first_without_gaps_or_repeats(world: World) -> None:
    client = signed_in(console(world))
    path, seen = "/facts?agent=nova&status=all&limit=2", []
    for _ in range(10):
        html = client.get(path).text
        seen += re.findall(r'class="fact-link" href="/fact\?agent=nova&amp;id=([^"]+)"', html)
        found = re.search(r'class="next" href="([^"]+)"', html)
        if found is None:
            break
        path = found.group(1).replace("&amp;", "&")
    assert len(seen) == len(set(seen)) == 7
    assert seen[0] == "f-email"
    assert seen[-1] == "f-oncall"
    assert "orion" not in " ".join(seen)


def test_a_bad_page_position_is_refused_with_a_reason(world: World) -> None:
    answer = signed_in(console(world)).get("/facts?agent=nova&after=yesterday")
    assert answer.status_code == 400
    assert "not a page position" in answer.text


def test_search_shows_each_retrievers_scores_and_the_fused_one(world: World) -> None:
    html = signed_in(console(world)).get("/search?agent=nova&user=alice&q=Alice+email").text
    assert "Alice&#39;s email is alice@example.com" in html
    assert "How it ranked" in html
    row = re.search(r"<tr>\s*<td>1</td>(.*?)</tr>", html, re.S)
    assert row is not None
    assert len(re.findall(r"\d\.\d{4}", row.group(1))) >= 2  # fused plus a retriever's score
    assert "Bob drinks" not in html


def test_context_is_the_xml_the_session_would_get_escaped(world: World) -> None:
    html = signed_in(console(world)).get("/context?agent=nova&session=s-alice-1").text
    xml = re.search(r'<pre class="xml" id="context-xml">(.*?)</pre>', html, re.S)
    assert xml is not None
    assert xml.group(1).startswith("&lt;MemoryContext")
    assert "Alice is an engineer in Porto" in xml.group(1)  # the session's user, from its state
    assert "Planning a weekend trip" in xml.group(1)


def test_context_follows_the_stored_sessions_toggles_and_a_chosen_user(world: World) -> None:
    private = world.memory.conversation(
        AgentMemoryConfig("nova", user_memory_enabled=False), "s-private", ["alice"]
    )
    turn = [{"role": "user", "content": "Just between us"}]
    asyncio.run(world.memory.record_messages(private, turn, background=False))
    client = signed_in(console(world))
    off = client.get("/context?agent=nova&session=s-private").text
    assert "Nova is an operations assistant" in off
    assert "Alice is an engineer in Porto" not in off  # user memory off in that session
    as_bob = client.get("/context?agent=nova&user=bob&session=s-alice-1")
    assert as_bob.status_code == 400  # Alice's session: Bob's prompt gets none of it
    assert "own session id" in as_bob.text
    assert "Planning a weekend trip" not in as_bob.text


def test_a_session_seen_as_a_user_its_turns_refuse_shows_the_refusal_not_the_memory(
    world: World,
) -> None:
    """The session's own users, and anyone its turns let in, preview it as before; seen as
    another user, the preview and the search say why that user's prompts get nothing."""
    client = signed_in(console(world))
    page = client.get("/session?agent=nova&session=s-alice-1&user=bob").text
    assert 'id="refusal"' in page
    assert "own session id" in page
    assert "Context a prompt of this session gets" not in page  # no preview offered as bob
    search = client.get("/search?agent=nova&user=bob&session=s-alice-1&q=weekend+trip")
    assert search.status_code == 400
    assert "Planning a weekend trip" not in search.text
    as_alice = client.get("/session?agent=nova&session=s-alice-1&user=alice").text
    assert 'id="refusal"' not in as_alice
    assert (
        "Planning a weekend trip"
        in client.get("/context?agent=nova&user=alice&session=s-alice-1").text
    )


def _post(world: World, path: str, form: dict[str, str], page: str) -> tuple[int, str]:
    client = signed_in(console(world))
    csrf = csrf_of(client.get(page).text)
    answer = client.post(path, data={"csrf": csrf, **form}, headers={"origin": ORIGIN})
    after = client.get(answer.headers["location"]).text if answer.status_code == 303 else ""
    return answer.status_code, after or answer.text


def _vector(world: World, fact_id: str) -> list[float]:
    return asyncio.run(world.stores.facts.get_vectors([FactId(fact_id)]))[FactId(fact_id)]


def test_editing_a_fact_re_embeds_it_and_keeps_the_old_text(world: World) -> None:
    old_vector = _vector(world, "f-email")
    form = {"agent": "nova", "id": "f-email", "content": "Alice's email is alice@porto.example"}
    form["version"] = "1"
    status, html = _post(world, "/fact/edit", form, "/fact?agent=nova&id=f-email")
    assert status == 303
    assert "edited and re-embedded" in html
    assert "alice@porto.example" in html
    assert "alice@example.com" in html  # in the history
    new_vector = _vector(world, "f-email")
    assert new_vector != old_vector


def test_replacing_a_blob_is_warned_and_needs_the_box_ticked(world: World) -> None:
    page = signed_in(console(world)).get("/blob?agent=nova&scope=user&user=alice").text
    assert "replaces the consolidated memory completely" in page
    form = {"agent": "nova", "scope": "user", "user": "alice", "content": "Alice: Porto."}
    form["version"] = "1"
    status, html = _post(world, "/blob/replace", form, "/blob?agent=nova")
    assert status == 400
    status, html = _post(world, "/blob/replace", form | {"understood": "yes"}, "/blob?agent=nova")
    assert status == 303
    assert "version 2" in html
    assert "Alice: Porto." in html


def test_a_reflection_is_edited_and_deleted_and_an_absorbed_one_is_not(world: World) -> None:
    page = "/user?agent=nova&user=alice"
    form = {"agent": "nova", "id": "r-alice-1", "back": page, "version": "1"}
    status, html = _post(
        world, "/reflection/edit", form | {"content": "Alice writes English"}, page
    )
    assert status == 303
    assert "Alice writes English" in html
    status, html = _post(world, "/reflection/delete", form, page)
    assert status == 303
    assert "Alice writes English" not in html
    assert "Awaiting consolidation: 1 of 4" in html


def test_erasing_a_user_needs_their_id_typed(world: World) -> None:
    form = {"agent": "nova", "user": "alice", "confirm": "alice?"}
    status, html = _post(world, "/user/erase", form, "/erase?agent=nova&user=alice")
    assert status == 400
    assert "type the user id" in html
    status, html = _post(world, "/user/erase", form | {"confirm": "alice"}, "/agent?agent=nova")
    assert status == 303
    assert "erased" in html
    listing = signed_in(console(world)).get("/facts?agent=nova&status=all").text
    assert "Alice" not in listing
    assert "Bob drinks" in listing


def test_export_downloads_the_agents_json_lines(world: World) -> None:
    answer = signed_in(console(world)).get("/export?agent=nova")
    assert answer.headers["content-disposition"].startswith('attachment; filename="nova.jsonl"')
    lines = [json.loads(line) for line in answer.text.splitlines()]
    assert lines[0]["kind"] == "header"
    assert lines[0]["agent_id"] == "nova"
    assert sum(1 for line in lines if line["kind"] == "fact") == 7
    assert "Orion" not in answer.text


@pytest.mark.parametrize(
    "path",
    [
        "/agent?agent=orion",
        "/facts?agent=orion",
        "/fact?agent=orion&id=f-orion",
        "/fact?agent=nova&id=f-orion",
        "/search?agent=orion&q=launch+code",
        "/context?agent=orion",
        "/blob?agent=orion",
        "/export?agent=orion",
        "/user?agent=orion&user=alice",
    ],
)
def test_another_agents_memory_is_not_reachable_by_editing_the_url(world: World, path: str) -> None:
    answer = signed_in(console(world)).get(path)
    assert answer.status_code == 404
    assert "launch code is" not in answer.text


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/fact/edit", {"agent": "orion", "id": "f-orion", "content": "leaked", "version": "1"}),
        ("/fact/edit", {"agent": "nova", "id": "f-orion", "content": "leaked", "version": "1"}),
        ("/fact/delete", {"agent": "nova", "id": "f-orion"}),
        ("/blob/replace", {"agent": "orion", "content": "x", "understood": "yes", "version": "0"}),
        ("/user/erase", {"agent": "orion", "user": "alice", "confirm": "alice"}),
    ],
)
def test_another_agents_memory_cannot_be_changed_by_editing_a_form(
    world: World, path: str, form: dict[str, str]
) -> None:
    status, _ = _post(world, path, form, "/agent?agent=nova")
    assert status == 404
    [fact] = asyncio.run(world.stores.facts.get_facts([FactId("f-orion")]))
    assert fact.content == "Orion's secret launch code is 0000"


def test_a_console_opened_on_both_agents_reaches_both(world: World) -> None:
    client = signed_in(console(world, agents=("nova", "orion")))
    assert "launch code" in client.get("/fact?agent=orion&id=f-orion").text
    assert client.get("/fact?agent=nova&id=f-orion").status_code == 404
    assert MARKUP not in client.get("/fact?agent=nova&id=f-markup").text


@pytest.mark.parametrize(
    "back", ["//evil.example/x", "/\\evil.example", "http://evil.example/", "/fact/edit"]
)
def test_after_a_write_the_console_never_redirects_elsewhere(world: World, back: str) -> None:
    client = signed_in(console(world))
    csrf = csrf_of(client.get("/agent?agent=nova").text)
    form = {"csrf": csrf, "agent": "nova", "id": "r-alice-1", "content": "x y", "back": back}
    form["version"] = "1"
    answer = client.post("/reflection/edit", data=form, headers={"origin": ORIGIN})
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/agent?agent=nova&note=")


def test_an_expired_fact_is_listed_as_expired_with_its_valid_until(world: World) -> None:
    now = world.clock.now()
    item: dict[str, object] = {"content": "Alice is in Rome this week", "agent_id": "nova"}
    item["user_id"] = "alice"
    item |= {"formed_at": now - timedelta(days=8), "valid_until": now - timedelta(days=1)}
    report = asyncio.run(world.memory.admin.add_facts([item]))
    client = signed_in(console(world))
    listing = client.get("/facts?agent=nova&status=active").text
    row = listing[listing.index("Alice is in Rome this week") :].split("</tr>")[0]
    assert "<td>expired</td>" in row
    html = client.get(f"/fact?agent=nova&id={report.added[0]}").text
    assert (now - timedelta(days=1)).isoformat() in html
