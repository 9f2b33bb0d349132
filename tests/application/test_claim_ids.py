"""A formation's claim id: new each time, except the retry of a request whose reply was lost."""

from __future__ import annotations

from eden_memory.application.formation.claim_ids import ClaimIds


def test_every_formation_asks_with_a_new_id() -> None:
    ids = ClaimIds()
    assert len({ids.take("nova", "s1") for _ in range(5)}) == 5


def test_the_id_of_an_unanswered_request_is_asked_with_once_more_for_that_session_only() -> None:
    ids = ClaimIds()
    lost = ids.take("nova", "s1")
    ids.unanswered("nova", "s1", lost)
    assert ids.take("nova", "s2") != lost
    assert ids.take("nova", "s1") == lost
    assert ids.take("nova", "s1") != lost  # handed out once: never to two formations


def test_the_oldest_unanswered_ids_go_first_past_the_bound() -> None:
    ids = ClaimIds(most=2)
    for session in ("s1", "s2", "s3"):
        ids.unanswered("nova", session, f"id-{session}")
    assert ids.take("nova", "s1") != "id-s1"
    assert (ids.take("nova", "s2"), ids.take("nova", "s3")) == ("id-s2", "id-s3")
