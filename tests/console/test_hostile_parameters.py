"""Every route with hostile values in every parameter: a one-line refusal, never a 500.

The parameter names are read from the console's own source (those of the route's module and
of the modules every page shares), so a new parameter is walked too; the routes come from the
app, so a new route is walked too. A write starts from a fresh sample for each parameter, so
a value that goes through does not leave the rest of the walk a deleted record.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from eden_memory.adapters.console import app as console_app
from tests.console.client import ORIGIN, console, csrf_of, sample_world, signed_in

NON_LATIN = "名前"  # an agent the console is opened on whose id is not Latin-1
SOURCE = Path(console_app.__file__).parent
NAMED = re.compile(r'(?:params|form|query_params), "(\w+)"|\.get\("(\w+)"')
SHARED = ("params.py", "rendering.py", "paging.py", "guard.py")  # what every page reads
NOT_PARAMETERS = {"host", "origin", "cookie", "sec-fetch-site"}  # headers the guard reads


def _names(*modules: str) -> set[str]:
    return {
        a or b for m in modules for a, b in NAMED.findall((SOURCE / m).read_text())
    } - NOT_PARAMETERS


NAMES = sorted(_names(*(p.name for p in SOURCE.glob("*.py"))))
ROUTES = [r for r in console_app.PAGES + console_app.ACTIONS if isinstance(r, Route)]
VALID = {
    "agent": "nova",
    "user": "alice",
    "session": "s-alice-1",
    "id": "f-markup",
    "scope": "user",
    "status": "all",
    "limit": "5",
    "top_k": "5",
    "q": "Alice",
    "version": "1",
    "content": "Alice writes Galician",
    "understood": "yes",
    "confirm": "alice",
    "back": "/agent?agent=nova",
}
HOSTILE = [
    "²",  # a superscript digit: str.isdigit() says yes, int() says no
    "٣",  # an Arabic-Indic digit: both say yes
    "9" * 5000,  # past int()'s 4300-digit limit
    str(2**70),
    "-1",
    " 7 ",
    "\x00",
    "%ED%A0%80",  # a lone surrogate, as UTF-8 bytes (sent raw)
    "%FF%FE",  # not UTF-8 at all (sent raw)
    NON_LATIN,
    "𝔸" * 300,
    "x" * 20_000,
    "//evil.example/",
    "http://[",
    "/agent\\@evil",
    "2026-01-01T00:00:00+00:00~f-markup",
    "not-a-time~id",
]


def _query(values: dict[str, str], raw: set[str]) -> str:
    """The query string, with the values in ``raw`` sent as they are (already encoded)."""
    return "&".join(f"{quote(k)}={v if v in raw else quote(v, safe='')}" for k, v in values.items())


class Browser:
    """A signed-in browser; ``fresh()`` points it at a new sample (its cookie and CSRF token
    hold for any console with the same token; the compiled templates are shared for speed)."""

    def __init__(self) -> None:
        self.client = signed_in(self._app())
        self.templates = self.client.app.state.templates  # type: ignore[attr-defined]
        self.csrf = csrf_of(self.client.get("/fact?agent=nova&id=f-markup").text)

    @staticmethod
    def _app() -> Starlette:
        return console(sample_world(), agents=("nova", NON_LATIN))

    def fresh(self) -> TestClient:
        """On a new sample; server errors come back as 500 answers, not exceptions."""
        app = self._app()
        app.state.templates = self.templates
        return TestClient(
            app, follow_redirects=False, raise_server_exceptions=False, cookies=self.client.cookies
        )


def _browser() -> TestClient:
    return Browser().fresh()


@pytest.fixture
def client() -> TestClient:
    return _browser()


def _send(client: TestClient, route: Route, values: dict[str, str], csrf: str) -> int:
    raw = {v for v in HOSTILE if v.startswith("%")}
    if "POST" not in (route.methods or ()):
        return client.get(f"{route.path}?{_query(values, raw)}").status_code
    body = _query(values | {"csrf": csrf}, raw)
    headers = {"origin": ORIGIN, "content-type": "application/x-www-form-urlencoded"}
    return client.post(route.path, content=body, headers=headers).status_code


@pytest.mark.parametrize("route", ROUTES, ids=[r.path for r in ROUTES])
def test_no_hostile_parameter_makes_a_route_fail(route: Route) -> None:
    failures: list[str] = []
    module = f"{route.endpoint.__module__.rsplit('.', 1)[-1]}.py"
    browser = Browser()
    client = browser.fresh()
    for name in sorted(_names(module, *SHARED)):
        for value in HOSTILE:
            values = VALID | {name: value}
            if route.path.startswith("/reflection") and name != "id":
                values["id"] = "r-alice-1"
            status = _send(client, route, values, browser.csrf)
            if status >= 500:
                failures.append(f"{name}={value[:20]!r}: {status}")
            if "POST" in (route.methods or ()) and status < 400:
                client = browser.fresh()  # the write went through: the next starts afresh
    assert failures == []


def test_the_walk_covers_every_parameter_the_console_reads() -> None:
    assert {"agent", "user", "session", "id", "limit", "top_k", "version", "after"} <= set(NAMES)
    assert {"back", "content", "confirm", "understood", "q", "scope", "status"} <= set(NAMES)
    assert len(ROUTES) == len(console_app.PAGES) + len(console_app.ACTIONS)


@pytest.mark.parametrize(
    "path",
    [
        "/facts?agent=nova&limit=²",
        "/facts?agent=nova&limit=٣",
        f"/facts?agent=nova&limit={'9' * 5000}",
        "/search?agent=nova&q=x&top_k=²",
        f"/search?agent=nova&q=x&top_k={'9' * 5000}",
    ],
)
def test_a_number_that_is_not_plain_ascii_digits_is_refused(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 400
    assert "must be a whole number from 1 to" in answer.text


def test_a_stale_version_that_is_no_number_is_refused(client: TestClient) -> None:
    csrf = csrf_of(client.get("/fact?agent=nova&id=f-markup").text)
    form = {"csrf": csrf, "agent": "nova", "id": "f-markup", "content": "x"}
    for version in ("²", "9" * 5000):
        answer = client.post(
            "/fact/edit", data=form | {"version": version}, headers={"origin": ORIGIN}
        )
        assert answer.status_code == 400


def test_an_agent_whose_id_is_not_latin_1_exports_under_its_own_name(client: TestClient) -> None:
    answer = client.get("/export", params={"agent": NON_LATIN})
    assert answer.status_code == 200
    disposition = answer.headers["content-disposition"]
    assert disposition == (
        "attachment; filename=\"__.jsonl\"; filename*=UTF-8''%E5%90%8D%E5%89%8D.jsonl"
    )
    assert disposition.isascii()


def test_a_plain_agent_id_exports_under_the_same_name_both_ways(client: TestClient) -> None:
    disposition = client.get("/export?agent=nova").headers["content-disposition"]
    assert disposition == "attachment; filename=\"nova.jsonl\"; filename*=UTF-8''nova.jsonl"


def test_a_back_link_that_is_no_url_goes_to_the_agent_page(client: TestClient) -> None:
    html = client.get("/reflection?agent=nova&id=r-alice-1").text
    form = {"csrf": csrf_of(html), "agent": "nova", "id": "r-alice-1", "back": "http://["}
    answer = client.post("/reflection/delete", data=form, headers={"origin": ORIGIN})
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/agent?agent=nova")


def test_the_hostile_values_reach_the_handlers_as_sent(client: TestClient) -> None:
    """The walk is only worth something if a refusal is the handler's, not a 404 of routing."""
    answer = client.get(f"/facts?{urlencode({'agent': 'nova', 'limit': '²'})}")
    assert "Not accepted" in answer.text
