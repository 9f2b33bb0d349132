"""The console says what is true: every user with memory is listed, an empty context says what
search still finds, each score says what it means, and ids are shown whole."""

from __future__ import annotations

import asyncio
import html as markup
import re
from datetime import timedelta

from eden_memory.application.ingestion.facts import FactInput
from eden_memory.application.search.score_meaning import MEANINGS, NEWER
from tests.application.story import World, make_world
from tests.console.client import console, sample_world, signed_in

AGENT = "nova"


def _facts_only_world(users: int) -> World:
    """``users`` users with three month-old facts each, and no notes at all."""
    world = make_world()
    then = world.clock.now() - timedelta(days=30)
    items = [
        FactInput(
            content=f"Fact {n} of user {u:03}", agent_id=AGENT, user_id=f"u{u:03}", formed_at=then
        )
        for u in range(users)
        for n in range(3)
    ]
    report = asyncio.run(world.memory.admin.add_facts(items))
    assert len(report.added) == 3 * users
    return world


def _owners(page: str) -> list[str]:
    """The users the "Users with memory" list links to."""
    listed = page.split("<h2>Users with memory</h2>")[1].split("</ul>")[0]
    return re.findall(r'href="/user\?agent=nova&amp;user=(u\d+)"', listed)


def test_users_with_facts_alone_are_listed_a_page_at_a_time() -> None:
    client = signed_in(console(_facts_only_world(52)))
    first = client.get("/agent?agent=nova").text
    assert "none yet" not in first.split("Sessions with memory")[0]
    assert _owners(first) == [f"u{u:03}" for u in range(50)]
    more = re.search(r'href="(/agent\?agent=nova&amp;users_after=u049)"', first)
    assert more is not None, "no link to the next page of users"
    rest = client.get(markup.unescape(more.group(1))).text
    assert _owners(rest) == ["u050", "u051"]


def test_an_empty_context_over_older_facts_says_search_finds_them() -> None:
    client = signed_in(console(_facts_only_world(2)))
    page = client.get("/context?agent=nova&user=u001").text
    note = re.search(r'<p class="note" id="left-out">(.*?)</p>', page, re.S)
    assert note is not None
    assert "No facts in the recent window (the newest 40, formed in the last 7 days)" in note[1]
    assert "3 older facts are found by search" in note[1]
    assert "/search?agent=nova&amp;user=u001" in note[1]
    assert "(empty: nothing to put in the prompt)" in page


def test_a_context_of_nothing_stored_says_so() -> None:
    client = signed_in(console(_facts_only_world(1)))
    page = client.get("/context?agent=nova&user=stranger").text
    assert 'id="left-out"' not in page
    assert "(empty: no memory stored in this conversation&#39;s scopes)" in page


def test_the_search_page_says_what_each_score_means() -> None:
    page = signed_in(console(sample_world())).get("/search?agent=nova&user=alice&q=Porto").text
    legend = re.search(r'<dl class="legend" id="score-meanings">(.*?)</dl>', page, re.S)
    assert legend is not None
    for meaning in (*MEANINGS, NEWER):
        assert f"<dt>{meaning.label}</dt><dd>{meaning.text}</dd>" in markup.unescape(legend[1])
    head = page.split('<table class="results"')[1].split("</thead>")[0]
    assert [m for m in re.findall(r"<th[^>]*>([^<]+)</th>", head)] == [
        "#",
        "fact",
        "relevance",
        "cosine",
        "bm25",
        "newer",
        "scope",
        "age",
    ]
    table = page.split('id="results"')[1].split("</table>")[0]
    scores = re.findall(r"</a></td>\s*<td>(\d\.\d{4})</td>", table)
    assert scores
    assert all(0.0 <= float(s) <= 1.0 for s in scores)


def test_a_fact_page_shows_its_id_whole_and_selectable() -> None:
    page = signed_in(console(sample_world())).get("/fact?agent=nova&id=f-email").text
    assert '<code class="id" id="fact-id">f-email</code>' in page
