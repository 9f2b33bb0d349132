"""Seed 004's context extras: the user's name, each blob's age, the agent's instructions."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.scopes import Scope, ScopeKey
from eden_memory.domain.text import xml_safe
from eden_memory.domain.xml_context import ScopeMemory, escape_attribute, render_memory_context
from tests.unit.domain.builders import ADVERSARIAL, PROPERTY, T0, make_reflection, raw_text

USER = ScopeKey.user("a1", "u1")
AGENT = ScopeKey.agent("a1")


def blob(key: ScopeKey, content: str, updated_days: float | None = None) -> ConsolidatedMemory:
    updated = None if updated_days is None else T0 - timedelta(days=updated_days)
    return ConsolidatedMemory.empty(key, 300).evolve(content=content, version=2, updated_at=updated)


def test_the_user_memory_carries_the_name_and_each_blob_its_age() -> None:
    parts = [
        ScopeMemory(Scope.USER, blob(USER, "Prefers short answers", 3), (), name="Alice"),
        ScopeMemory(Scope.AGENT, blob(AGENT, "Plans the festival", 0.01), (), instructions="Keep"),
    ]
    assert render_memory_context(parts, [], T0).splitlines() == [
        "<MemoryContext>",
        "<AgentMemory>",
        "<MemoryInstructions>Keep</MemoryInstructions>",
        '<Consolidated version="2" updated="14m ago">Plans the festival</Consolidated>',
        "</AgentMemory>",
        '<UserMemory name="Alice">',
        '<Consolidated version="2" updated="3d ago">Prefers short answers</Consolidated>',
        "</UserMemory>",
        "</MemoryContext>",
    ]


def test_a_blob_never_updated_has_no_age_and_a_section_without_a_name_has_none() -> None:
    document = render_memory_context([ScopeMemory(Scope.USER, blob(USER, "x"), ())], [], T0)
    assert '<UserMemory>\n<Consolidated version="2">x</Consolidated>' in document


def test_a_name_or_instructions_alone_are_not_a_memory() -> None:
    alone = ScopeMemory(Scope.AGENT, None, (), name="Alice", instructions="Keep budgets")
    assert render_memory_context([alone], [], T0) == ""


@PROPERTY
@given(raw_text(), st.lists(st.sampled_from(ADVERSARIAL), max_size=4).map("".join))
def test_any_name_and_instructions_read_back_and_forge_nothing(text: str, markup: str) -> None:
    name, instructions = text + markup, markup + text
    note = make_reflection("r1", USER, content="Prefers tea")
    parts = [
        ScopeMemory(Scope.USER, None, [note], name=name),
        ScopeMemory(Scope.AGENT, blob(AGENT, "Plans"), (), instructions=instructions),
    ]
    root = ET.fromstring(render_memory_context(parts, [], T0))
    assert [e.tag for e in root.iter()] == [
        "MemoryContext",
        "AgentMemory",
        *(["MemoryInstructions"] if xml_safe(instructions).strip() else []),
        "Consolidated",
        "UserMemory",
        "RecentReflections",
    ]
    user = root.find("UserMemory")
    assert user is not None
    assert user.get("name") == (xml_safe(name) or None)
    shown = root.find("AgentMemory/MemoryInstructions")
    if shown is not None:
        assert shown.text == xml_safe(instructions).strip()


def test_an_attribute_escapes_quotes_line_feeds_and_tabs() -> None:
    assert escape_attribute('A "B" <C> &\n\t\r') == "A &quot;B&quot; &lt;C&gt; &amp;&#10;&#9;&#13;"
