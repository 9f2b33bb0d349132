"""Reflections have versions and a history, like facts; records stored before them still read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from eden_memory.domain.errors import ConflictError, StaleEditError
from eden_memory.domain.models import Reflection, ReflectionRevision
from eden_memory.domain.scopes import ScopeKey

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
KEY = ScopeKey.user("nova", "alice")


def _note(content: str = "Alice prefers tea") -> Reflection:
    return Reflection.in_scope(KEY, id="r1", content=content, formed_at=T0, created_at=T0)


def test_a_reflection_stored_before_versions_reads_as_version_one_with_no_history() -> None:
    stored = _note().model_dump(mode="json")
    del stored["version"], stored["history"]
    old = Reflection.model_validate(stored)
    assert (old.version, old.history) == (1, ())


def test_a_revised_reflection_is_one_version_up_and_keeps_its_old_text() -> None:
    later = T0 + timedelta(hours=1)
    revised = _note().revised("Alice prefers green tea", later, "console edit")
    assert (revised.version, revised.content) == (2, "Alice prefers green tea")
    assert revised.history == (
        ReflectionRevision(
            version=1, content="Alice prefers tea", replaced_at=later, reason="console edit"
        ),
    )
    assert revised.revised("Alice drinks coffee", later).version == 3


def test_a_stale_edit_is_a_conflict_that_shows_the_newer_text_and_its_version() -> None:
    current = _note("Alice prefers green tea").evolve(version=3)
    error = StaleEditError("reflection r1", 2, current)
    assert isinstance(error, ConflictError)
    assert error.current is current
    assert (error.based_on, error.current_version) == (2, 3)
    assert "version 2" in str(error)
    assert "version 3" in str(error)
    assert "Alice prefers green tea" in str(error)
