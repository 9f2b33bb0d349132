"""One line for a refused value: which field, and what is wrong with it.

Pydantic's own text for a ``ValidationError`` is an essay: a title, one paragraph per problem,
the input repeated, and a documentation link (``For further information visit
https://errors.pydantic.dev/…``). Every edge that shows such an error to a person or a
model (the MCP server, an import, ``add-facts``, the settings, a model's answer) says it
in one line instead, through ``one_line``: ``top_k: Input should be less than or equal to 50``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pydantic import ValidationError

MOST_SHOWN = 3  # problems named in full; the rest are counted
MOST_CHARS = 300  # a line longer than this is cut
# The tag pydantic puts in a location for the branch of a union it tried ("list[str]",
# "constrained-str", "function-after[…]"): no field of ours is named like that.
_BRANCH = re.compile(r".*[\[\]\-(),].*|str|int|float|bool|bytes|list|dict|tuple|none")
_PREFIXES = ("Value error, ", "Assertion failed, ")


def one_line(error: ValidationError, most: int = MOST_SHOWN) -> str:
    """``field: problem``, for the first problem of each field (a union reports one per branch
    it tried; the first is the one meant), ``; ``-joined, the rest counted, one line."""
    firsts: dict[str, str] = {}
    for problem in error.errors(include_url=False, include_input=False):
        firsts.setdefault(where(problem["loc"]), _message(problem))
    parts = [f"{place}: {text}" if place else text for place, text in firsts.items()]
    shown = "; ".join(parts[:most])
    if len(parts) > most:
        shown += f" (and {len(parts) - most} more)"
    return _cut(shown or str(error.title))


def reason(error: BaseException) -> str:
    """Any refusal as one line: pydantic's in the form above, a missing key named, others as
    they read."""
    if isinstance(error, ValidationError):
        return one_line(error)
    if isinstance(error, KeyError) and error.args and type(error) is KeyError:
        return f"no {error.args[0]!r} field"
    return _cut(" ".join(str(error).split()) or type(error).__name__)


def where(loc: Sequence[int | str]) -> str:
    """``messages[0].sent_at`` for pydantic's ``("messages", 0, "sent_at")``; union tags
    left out."""
    text = ""
    for index, part in enumerate(loc):
        if isinstance(part, int):
            text += f"[{part}]"
        elif index == 0 or _BRANCH.fullmatch(part) is None:
            text += f".{part}" if text else part
    return text


def _message(problem: Mapping[str, object]) -> str:
    text = " ".join(str(problem["msg"]).split())
    for prefix in _PREFIXES:
        text = text.removeprefix(prefix)
    return text


def _cut(text: str) -> str:
    return text if len(text) <= MOST_CHARS else text[: MOST_CHARS - 1] + "…"
