"""The console's search page never says "nothing passed" above a list of facts: it shows the
relevance line, why an empty search is empty, and the hits held back under the line."""

from __future__ import annotations

import asyncio
import re

from tests.application.story import World
from tests.application.test_search import _world
from tests.console.client import console, sample_world, signed_in

UNSTORED = "/search?agent=nova&user=alice&q=Which+dentist+does+Carla+see%3F"


def _abstaining_world() -> World:
    world, _ = asyncio.run(_world())
    return world


def _table(html: str, table_id: str) -> str:
    found = re.search(rf'<table class="results" id="{table_id}">(.*?)</table>', html, re.S)
    assert found is not None, f"no table {table_id}"
    return found.group(1)


def test_an_abstaining_search_shows_the_line_and_the_hits_under_it() -> None:
    html = signed_in(console(_abstaining_world())).get(UNSTORED).text
    assert "Nothing passed the thresholds." not in html
    results = _table(html, "results")
    reason = re.search(
        r"nothing relevant: best relevance (0\.\d{4}) under the line 0\.5; (\d+) held back",
        results,
    )
    assert reason is not None, results
    held = _table(html, "under-line")
    contents = re.findall(r'class="fact-link"[^>]*>([^<]+)</a>', held)
    assert len(contents) == int(reason.group(2))
    relevances = [float(r) for r in re.findall(r"<td>(0\.\d{4})</td>", held)]
    assert relevances
    assert max(relevances) == float(reason.group(1))
    assert "the line: relevance 0.5" in html


def test_an_agent_with_no_facts_says_so_and_shows_no_held_back_table() -> None:
    world = sample_world()
    app = console(world, agents=("nova", "ghost"))
    html = signed_in(app).get("/search?agent=ghost&q=anything").text
    assert "agent &#39;ghost&#39; holds no facts" in _table(html, "results")
    assert 'id="under-line"' not in html


def test_a_search_with_results_shows_them_and_no_reason() -> None:
    html = signed_in(console(sample_world())).get("/search?agent=nova&user=alice&q=Alice+email")
    results = _table(html.text, "results")
    assert "Alice&#39;s email is alice@example.com" in results
    assert "nothing relevant" not in html.text
    assert 'id="under-line"' not in html.text
