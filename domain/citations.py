"""How many messages a fact may cite as its source, and which it keeps past that.

A small model (issue 15) cited a whole 25-turn session for "Jon is starting a dance studio",
and a fact that names no source at all is filed under every message of its batch. Such a
citation says nothing about where the fact was stated: the provenance a user inspects and
the evidence a benchmark scores both become the session. The prompt asks for the one to
three messages that state the fact; a longer citation is trimmed to the ``MAX_SOURCES``
cited messages sharing most words with the fact (its content words, four letters or more),
the earlier one first on a tie, kept in conversation order. The fact itself is kept: its
text was checked on its own, only its provenance was too wide.
"""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.domain.fact_checks import words_of

MAX_SOURCES = 3
_CONTENT_LETTERS = 4  # shorter words ("the", "and", "her") say nothing about the topic


def content_words(text: str) -> frozenset[str]:
    """The words of ``text`` that carry its topic, case-folded."""
    return frozenset(w for w in words_of(text) if len(w) >= _CONTENT_LETTERS)


def trimmed_citation(fact: str, cited: Sequence[str], limit: int = MAX_SOURCES) -> tuple[int, ...]:
    """The positions (from 0, in order) of the cited messages a fact keeps as its sources.

    All of them when there are ``limit`` or fewer; otherwise the ``limit`` sharing most
    content words with ``fact``, the earlier first on a tie.
    """
    if limit < 1:
        raise ValueError(f"a fact keeps at least one source, not {limit}")
    if len(cited) <= limit:
        return tuple(range(len(cited)))
    wanted = content_words(fact)
    shared = [len(wanted & content_words(text)) for text in cited]
    best = sorted(range(len(cited)), key=lambda i: (-shared[i], i))[:limit]
    return tuple(sorted(best))
