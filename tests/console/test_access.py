"""Who may look: the token, the session cookie, the host, and no write from elsewhere."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from eden_memory.adapters.console.app import ACTIONS
from eden_memory.adapters.console.guard import COOKIE, Guard
from tests.console.client import (
    ORIGIN,
    TOKEN,
    console,
    csrf_of,
    sample_world,
    signed_in,
    snapshot,
)

PAGES = ["/", "/agent?agent=nova", "/facts?agent=nova", "/static/console.css", "/export?agent=nova"]


@pytest.mark.parametrize("path", PAGES)
def test_nothing_is_served_without_the_token(path: str) -> None:
    client = TestClient(console(sample_world()), follow_redirects=False)
    answer = client.get(path)
    assert answer.status_code == 401
    assert "nova" not in answer.text


def test_the_token_once_gives_a_strict_http_only_cookie_and_leaves_the_url() -> None:
    client = TestClient(console(sample_world()), follow_redirects=False)
    answer = client.get(f"/facts?agent=nova&token={TOKEN}&status=all")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/facts?agent=nova&status=all"
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=strict" in cookie
    assert TOKEN not in answer.headers["set-cookie"]
    assert client.get("/facts?agent=nova").status_code == 200


def test_a_wrong_token_or_a_forged_cookie_is_refused() -> None:
    app = console(sample_world())
    client = TestClient(app, follow_redirects=False)
    assert client.get("/?token=guess").status_code == 401
    forged = Guard("another-token").new_cookie()
    client.cookies.set(COOKIE, forged)
    assert client.get("/").status_code == 401
    client.cookies.set(COOKIE, "session.0000")
    assert client.get("/").status_code == 401


def test_a_request_for_another_host_is_refused() -> None:
    client = signed_in(console(sample_world()))
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400


def test_every_answer_carries_a_strict_content_security_policy() -> None:
    answer = signed_in(console(sample_world())).get("/agent?agent=nova")
    assert "default-src 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["cache-control"] == "no-store"


WRITES = [route.path for route in ACTIONS]


def _form(path: str, csrf: str) -> dict[str, str]:
    """A form each write accepts, so a refusal can only come from the check under test."""
    base = {"csrf": csrf, "agent": "nova"}
    return (
        base
        | {
            "/fact/edit": {
                "id": "f-email",
                "content": "Alice's email is a@b.example",
                "version": "1",
            },
            "/fact/delete": {"id": "f-email"},
            "/reflection/edit": {
                "id": "r-alice-1",
                "content": "Alice prefers English",
                "version": "1",
            },
            "/reflection/delete": {"id": "r-alice-1"},
            "/blob/replace": {
                "scope": "agent",
                "content": "New",
                "understood": "yes",
                "version": "1",
            },
            "/user/erase": {"user": "bob", "confirm": "bob"},
        }[path]
    )


def test_every_write_route_is_covered_here() -> None:
    assert set(WRITES) == {
        "/fact/edit",
        "/fact/delete",
        "/reflection/edit",
        "/reflection/delete",
        "/blob/replace",
        "/user/erase",
    }


@pytest.mark.parametrize("path", WRITES)
def test_every_write_needs_the_sessions_csrf_token(path: str) -> None:
    world = sample_world()
    client = signed_in(console(world))
    before = snapshot(world)
    for bad in ("", "0" * 64):
        answer = client.post(path, data=_form(path, bad), headers={"origin": ORIGIN})
        assert answer.status_code == 403, path
    other_session = signed_in(console(world))
    stolen = csrf_of(other_session.get("/fact?agent=nova&id=f-email").text)
    assert client.post(path, data=_form(path, stolen)).status_code == 403
    assert snapshot(world) == before
    good = csrf_of(client.get("/fact?agent=nova&id=f-email").text)
    assert client.post(path, data=_form(path, good), headers={"origin": ORIGIN}).status_code == 303


@pytest.mark.parametrize("path", WRITES)
@pytest.mark.parametrize(
    "headers",
    [{"origin": "http://evil.example"}, {"origin": "null"}, {"sec-fetch-site": "cross-site"}],
)
def test_a_write_from_another_site_is_refused_even_with_the_token(
    path: str, headers: dict[str, str]
) -> None:
    world = sample_world()
    client = signed_in(console(world))
    csrf = csrf_of(client.get("/fact?agent=nova&id=f-email").text)
    before = snapshot(world)
    answer = client.post(path, data=_form(path, csrf), headers=headers)
    assert snapshot(world) == before
    assert answer.status_code == 403


@pytest.mark.parametrize("path", WRITES)
def test_read_only_refuses_every_write_and_shows_no_form(path: str) -> None:
    world = sample_world()
    writable = signed_in(console(world))
    csrf = csrf_of(writable.get("/fact?agent=nova&id=f-email").text)
    client = signed_in(console(world, read_only=True))
    client.cookies = writable.cookies  # the same session: its token would be accepted
    before = snapshot(world)
    answer = client.post(path, data=_form(path, csrf), headers={"origin": ORIGIN})
    assert answer.status_code == 403
    assert "read-only" in answer.text
    assert snapshot(world) == before
    pages = ["/fact?agent=nova&id=f-email", "/user?agent=nova&user=alice", "/blob?agent=nova"]
    pages += ["/agent?agent=nova", "/session?agent=nova&session=s-alice-1"]
    for page in [*pages, "/erase?agent=nova&user=alice"]:
        html = client.get(page).text
        assert re.search(r'method="post"', html) is None
        assert "read-only" in html
