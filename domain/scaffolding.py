"""Whether a model's answer echoes the prompt that asked for it.

A real small model (issue 15) answered a consolidation with our own scaffolding —
``<current_memory version="0">`` and the "(empty: start the structure)" placeholder — and
the blob was kept and shown in every prompt. The markers are read from the very prompt
that was sent (its tags, its placeholders, its instruction lines and quoted examples), so a
changed prompt is checked by its own words. Whatever the stored text the prompt carried
already says is not a marker: a memory that mentions a tag, or keeps a line a person wrote,
is not refused for it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

from eden_memory.domain.fact_checks import words_of
from eden_memory.domain.near_copies import (
    PromptSentence,
    content_words,
    near_copies,
    prompt_sentences,
)

# A prompt line of fewer words is too common to tell an echo from a coincidence ("Rules:"),
# unless it is a placeholder in parentheses ("(empty)").
MIN_PHRASE_WORDS = 3
# A shorter phrase ("(empty: start the structure)", an example "- Prefers short answers")
# is an echo only as a whole line of the answer; a longer one anywhere in a line.
MIN_INLINE_WORDS = 5

# A tag as the prompt writes it; in an answer also as the escaped form a model may copy.
_TAG = re.compile(r"<\s*/?\s*([A-Za-z_][\w.-]*)[^<>]*>")
_ANSWER_TAG = re.compile(r"(?:<|&lt;)\s*/?\s*([A-Za-z_][\w.-]*)")
_QUOTED = re.compile(r"\"([^\"]+)\"")
_PLACEHOLDER = re.compile(r"\A\(.*\)\Z")


@dataclass(frozen=True)
class Phrase:
    """A line or quoted example of the prompt, compared as words."""

    text: str  # as the prompt writes it, for the report
    spaced: str  # its words, as ``_spaced`` writes them
    whole_line: bool = False  # counts only as a whole line of the answer

    def in_line(self, spaced_line: str) -> bool:
        """Whether an answer line (as ``_spaced`` words) repeats this phrase."""
        return self.spaced == spaced_line if self.whole_line else self.spaced in spaced_line


@dataclass(frozen=True)
class Scaffolding:
    """What of a prompt is ours, not the stored text it carried."""

    tags: frozenset[str]  # tag names, e.g. "current_memory"
    phrases: tuple[Phrase, ...]
    # Sentences a near-copy is compared with (``domain.near_copies``): the prompt's and every
    # other prompt's, less those the carried texts hold; and the carried texts' own words.
    sentences: tuple[PromptSentence, ...] = ()
    carried_words: frozenset[str] = frozenset()


def scaffolding_of(
    prompt: str, carried: Sequence[str], others: Sequence[PromptSentence] = ()
) -> Scaffolding:
    """The markers of ``prompt`` (as sent, stored text escaped) that ``carried`` does not hold.

    ``carried`` are the stored texts the prompt shows (the current memory, the notes);
    ``others`` the sentences of every prompt, whose near-copies are refused too.
    """
    kept = [_spaced(words_of(text)) for text in carried]  # joined once: messages may be long
    carried_tags = {name.casefold() for text in carried for name in _ANSWER_TAG.findall(text)}
    tags = {name.casefold() for name in _TAG.findall(prompt)} - carried_tags
    phrases: dict[tuple[str, ...], Phrase] = {}
    for raw in prompt.splitlines():
        # Tags go before unescaping: an escaped tag inside stored text is that text's own.
        line = html.unescape(_TAG.sub(" ", raw)).strip()
        for part in (line, *_QUOTED.findall(line)):
            words = words_of(part)
            if words and (len(words) >= MIN_PHRASE_WORDS or _PLACEHOLDER.match(part)):
                inline = len(words) >= MIN_INLINE_WORDS
                phrases.setdefault(words, Phrase(part, _spaced(words), whole_line=not inline))
    sentences = (*prompt_sentences([html.unescape(_TAG.sub(" ", prompt))]), *others)
    return Scaffolding(
        frozenset(tags),
        tuple(p for p in phrases.values() if not any(p.spaced in k for k in kept)),
        tuple(s for s in sentences if not any(_spaced(words_of(s.text)) in k for k in kept)),
        frozenset().union(*(content_words(text) for text in carried)),
    )


def echoed_scaffolding(answer: str, scaffolding: Scaffolding) -> tuple[str, ...]:
    """The markers of the prompt that ``answer`` repeats, in a stable order; () when none."""
    names = {name.casefold() for name in _ANSWER_TAG.findall(answer)}
    found = {f"<{name}>" for name in names & scaffolding.tags}
    # Line by line: an answer made of lines the prompt carried is never an echo, even when
    # two of them side by side happen to spell an instruction.
    lines = [_spaced(words_of(line)) for line in answer.splitlines()]
    for phrase in scaffolding.phrases:
        if any(phrase.in_line(line) for line in lines):
            found.add(phrase.text)
    if not found:  # an exact echo says enough; a near-copy is the echo with other names
        copied = near_copies(answer, scaffolding.sentences, scaffolding.carried_words)
        found.update(f"{text!r} with other names" for text in copied)
    return tuple(sorted(found))


def _spaced(words: Sequence[str]) -> str:
    """Words between spaces, so that a substring test matches whole words only."""
    return f" {' '.join(words)} "
