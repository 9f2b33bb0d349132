"""Checks on what a model offers as a fact, before it is kept.

A real small model (issue 15) returned a whole message as a "fact" and filed the agent's
own lines ("I will keep the new date and venue in mind"). Neither is a fact: a raw message
is not written to be found later, and a first-person line does not say who it is about.
``fact_problem`` says why a fact is refused, or None; the application reports and logs
every refusal and keeps the other facts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from eden_memory.domain.models.messages import Message, Role
from eden_memory.domain.text import word_count

# A message shorter than this may itself be a well-formed one-clause fact ("The main stage
# needs a 12 kW PA system."); from this length on, a message kept whole is a message.
VERBATIM_MIN_WORDS = 10
# Word-sequence similarity from which a fact "nearly equals" a message: one word changed in
# ten, or one dropped. LoCoMo's 1,210 human-written observations: 1 is that close to a turn.
VERBATIM_SIMILARITY = 0.9

Kind = Literal["fact", "reflection"]
_PURPOSE: dict[Kind, str] = {
    "fact": "a statement written to be found later",
    "reflection": "a note written for the agent to act on",
}

_WORDS = re.compile(r"\w+")
_APOSTROPHE = "['\u2019]"
# Quoted words are someone's title or saying ("sings 'I Will Survive'"), not the fact's voice.
_QUOTED = re.compile(
    r"\"[^\"]*\"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019|(?<![\w'])'[^']+'(?![\w'])"
)
# First-person words: "I" (capital, as a pronoun), "I'm", "me", "my", and at the start of a
# clause "we", "our", "let's" (elsewhere a plural is mostly the generic one: "who we really
# are", "a reset for our souls", as LoCoMo's observations say it). Case matters where a
# capital means something else: "I" after a name is a numeral ("Henry I", "World War I"),
# which ``first_person`` leaves out.
_SINGULAR = rf"I(?:{_APOSTROPHE}(?:m|ll|ve|d))?|[Mm](?:e|y|yself)"  # not "mine": a coal mine
_PLURAL = rf"[Ww]e(?:{_APOSTROPHE}(?:re|ll|ve|d))?|[Uu]s|[Oo]ur(?:s|selves)?|[Ll]et{_APOSTROPHE}s"
_END = r"(?![\w'\u2019/-])"
_FIRST_PERSON = re.compile(
    rf"(?<![\w'\u2019/.-])({_SINGULAR}){_END}|(?:\A|[.!?;:,]\s+)({_PLURAL}){_END}"
)


def words_of(text: str) -> tuple[str, ...]:
    """The words of a text for comparison: Unicode-normalised, case-folded, no punctuation."""
    return tuple(_WORDS.findall(unicodedata.normalize("NFKC", text).casefold()))


def nearly_equal(a: Sequence[str], b: Sequence[str]) -> bool:
    """Two word sequences that differ by at most about one word in ten."""
    if tuple(a) == tuple(b):
        return True
    # The bound on lengths first (difflib's real_quick_ratio, without indexing a long text).
    if 2 * min(len(a), len(b)) < VERBATIM_SIMILARITY * (len(a) + len(b)):
        return False
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.quick_ratio() < VERBATIM_SIMILARITY:
        return False
    return matcher.ratio() >= VERBATIM_SIMILARITY


@dataclass(frozen=True)
class FactChecks:
    """The checks for the facts of one batch of messages, its long messages read once."""

    long_messages: tuple[tuple[int, tuple[str, ...]], ...]  # (position from 1, words)

    @classmethod
    def of(cls, messages: Sequence[Message]) -> FactChecks:
        return cls(
            tuple(
                (number, words_of(m.text))
                for number, m in enumerate(messages, start=1)
                if word_count(m.text) >= VERBATIM_MIN_WORDS
            )
        )

    def verbatim_message(self, content: str) -> int | None:
        """The position (as the prompt numbers them) of a long message the fact repeats."""
        said = words_of(content)
        return next((n for n, words in self.long_messages if nearly_equal(said, words)), None)

    def problem(
        self, content: str, sources: Sequence[Message] = (), what: Kind = "fact"
    ) -> str | None:
        """Why a model's fact (or reflection: ``what``) must not be kept, or None when it may be.

        Every message of the batch is compared, whatever the model named as its sources;
        ``sources`` only tell whose voice a first-person fact is in.
        """
        number = self.verbatim_message(content)
        if number is not None:
            return (
                f"repeats message {number} of the conversation nearly word for word; "
                f"a {what} is {_PURPOSE[what]}, not a message"
            )
        pronoun = first_person(content)
        if pronoun is None:
            return None
        agent = bool(sources) and all(m.role is Role.AGENT for m in sources)
        return (
            f"{'the agent' if agent else 'it'} speaks in the first person ({pronoun!r}); "
            f"a {what} names who it is about"
        )


def verbatim_message(content: str, messages: Sequence[Message]) -> int | None:
    """The position (from 1) of a message of ``messages`` that ``content`` repeats, if any."""
    return FactChecks.of(messages).verbatim_message(content)


def fact_problem(
    content: str, messages: Sequence[Message], sources: Sequence[Message] = ()
) -> str | None:
    """Why ``content`` must not be kept as a fact of ``messages``, or None."""
    return FactChecks.of(messages).problem(content, sources)


def first_person(content: str) -> str | None:
    """The first first-person word of a fact ("I'm", "my", "Let's"), outside quotes, if any."""
    text = _QUOTED.sub(" ", content)
    for found in _FIRST_PERSON.finditer(text):
        word = found.group(1) or found.group(2)
        if word == "I" and _numeral(text[: found.start()], text[found.end() :]):
            continue
        return word
    return None


def _numeral(before: str, after: str) -> bool:
    """A capital "I" after a name is a numeral ("World War I", "Henry I of England"); after a
    capitalised word that opens its clause it is the pronoun ("Glad I could help")."""
    words = before.split()
    if not words or not words[-1][:1].isupper() or not words[-1][-1:].isalnum():
        return False
    opens_clause = len(words) == 1 or words[-2][-1:] in ".!?;:,"
    following = after.split()[:1]
    return not opens_clause or not following or following[0] in ("of", ",", ".")
