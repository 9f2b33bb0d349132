"""Whether a memory is a prompt's sentence with its names swapped.

The echo check (``domain.scaffolding``) refuses the prompt's own lines word for word. A real
small model got past it with the worked examples' person renamed ("Alice wants answers in
Portuguese", where the example says "Ana") and with a bare opening sentence of a longer
prompt line ("The section has no text yet.") stored as a session blob (issue 40).

So every sentence of a prompt is also compared as a set of words in which each capitalised
word (a name, a month, a language, a sentence's first word) is one placeholder: a memory
sentence whose set is close to a prompt sentence's (``NEAR_COPY_SIMILARITY``, Jaccard) is a
near-copy, unless the words the two share are the memory's own: most of them (all but
``MAX_UNGROUNDED_SHARE``) in the texts the prompt carried (the conversation, the memory), as
when a user really asks for answers in Portuguese.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from eden_memory.domain.stemming import porter_stem
from eden_memory.domain.stop_words import is_stop_word

# Measured on LoCoMo's human-written observations against every sentence of today's prompts
# (docs/decisions.md, "Near-copies of the prompts"): 0.7 leaves none of them a near-copy.
NEAR_COPY_SIMILARITY = 0.7
# A prompt sentence of fewer distinct plain words says too little to be told from a memory.
MIN_PLAIN_WORDS = 3
# A near-copy is the memory's own when at most this share of the words it shares with the
# prompt sentence is missing from what the prompt carried.
MAX_UNGROUNDED_SHARE = 1 / 3

_NAME = "\x00"  # every capitalised word, as one token
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\s+/\s+")
_QUOTED = re.compile(r"\"([^\"]+)\"|\u201c([^\u201d]+)\u201d")


@dataclass(frozen=True)
class PromptSentence:
    """A sentence of a prompt, as a near-copy is compared with it."""

    text: str
    tokens: frozenset[str]  # words case-folded, capitalised words as one placeholder
    words: frozenset[str]  # stems of its content words (no stop words), names included


def sentences_of(text: str) -> list[str]:
    """Lines, their quoted parts and their sentences, each stripped; no empty one."""
    out: list[str] = []
    for line in text.splitlines():
        parts = [line, *(a or b for a, b in _QUOTED.findall(line))]
        for part in parts:
            out.extend(s.strip() for s in _SENTENCE_END.split(part) if s.strip())
            out.append(part.strip())
    return list(dict.fromkeys(s for s in out if s))


def prompt_sentences(texts: Iterable[str]) -> tuple[PromptSentence, ...]:
    """The sentences of ``texts`` worth comparing, once each."""
    found: dict[frozenset[str], PromptSentence] = {}
    for text in texts:
        for sentence in sentences_of(text):
            tokens = masked_tokens(sentence)
            if len(tokens - {_NAME}) >= MIN_PLAIN_WORDS and tokens not in found:
                found[tokens] = PromptSentence(sentence, tokens, content_words(sentence))
    return tuple(found.values())


def masked_tokens(text: str) -> frozenset[str]:
    """The words of ``text`` case-folded, every capitalised word as one placeholder."""
    return frozenset(_NAME if w[0].isupper() else w.casefold() for w in _TOKEN.findall(text))


def content_words(text: str) -> frozenset[str]:
    """Stems of the words that say something (no stop words), capitalised ones included."""
    words = (w.casefold().replace("’", "'") for w in _TOKEN.findall(text))
    return frozenset(porter_stem(w.split("'")[0]) for w in words if not is_stop_word(w))


def near_copies(
    answer: str, sentences: Sequence[PromptSentence], carried: frozenset[str]
) -> tuple[str, ...]:
    """The prompt sentences ``answer`` nearly repeats with other names, that ``carried`` (the
    content words of what the prompt carried, as ``content_words`` gives) does not ground."""
    found: dict[str, None] = {}
    for sentence in sentences_of(answer):
        tokens = masked_tokens(sentence)
        if len(tokens - {_NAME}) < MIN_PLAIN_WORDS:
            continue
        words = content_words(sentence)
        for prompt in sentences:
            if _similarity(tokens, prompt.tokens) >= NEAR_COPY_SIMILARITY and not _grounded(
                words & prompt.words, carried
            ):
                found[prompt.text] = None
    return tuple(found)


def _similarity(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b)


def _grounded(shared: frozenset[str], carried: frozenset[str]) -> bool:
    """Whether the words a memory shares with a prompt sentence are mostly the memory's own."""
    return bool(shared) and len(shared - carried) <= MAX_UNGROUNDED_SHARE * len(shared)
