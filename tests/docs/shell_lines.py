"""The shell commands of README.md and docs/*.md, as a reader would copy them.

A *snippet* is a ```bash block or an inline code span; its commands are its lines (with ``\\``
continuations joined and ``#`` comments dropped) split at ``&&``, ``;`` and ``|``, each a list
of words. Placeholders in brackets (``[--agent ID]``) stay words of their own, brackets off.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_FENCE = re.compile(r"```(?P<lang>[a-z]*)\n(?P<body>.*?)```", re.S)
_SPAN = re.compile(r"`([^`\n]+)`")
SHELLS = {"bash", "sh", "shell", "console"}


@dataclass(frozen=True)
class Snippet:
    where: str  # page and line
    commands: tuple[tuple[str, ...], ...]
    fenced: bool  # a block of commands, not a span in a sentence (which may only name one)


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def snippets() -> list[Snippet]:
    found: list[Snippet] = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for fence in _FENCE.finditer(text):
            if fence["lang"] in SHELLS:
                line = text.count("\n", 0, fence.start()) + 1
                found.append(_snippet(f"{page.name}:{line}", fence["body"], fenced=True))
        prose = _FENCE.sub(lambda m: "\n" * m[0].count("\n"), text)
        for span in _SPAN.finditer(prose):
            line = prose.count("\n", 0, span.start()) + 1
            found.append(_snippet(f"{page.name}:{line}", span[1], fenced=False))
    return [s for s in found if s.commands]


def _snippet(where: str, body: str, fenced: bool) -> Snippet:
    commands: list[tuple[str, ...]] = []
    for line in body.replace("\\\n", " ").splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:  # prose in backticks, not a command
            continue
        command: list[str] = []
        for word in [*words, "&&"]:
            if word in ("&&", ";", "|", "||", "&"):
                if command:
                    commands.append(tuple(command))
                command = []
            else:
                command.append(_unbracketed(word))
    kept = (tuple(word for word in command if word) for command in commands)
    return Snippet(where, tuple(command for command in kept if command), fenced)


def _unbracketed(word: str) -> str:
    """``[--agent`` and ``ID]`` (an optional part) without the brackets; ``.[mongo]`` as is."""
    word = word.removeprefix("[")
    return word.removesuffix("]") if "[" not in word else word


def is_pip_install(command: tuple[str, ...]) -> bool:
    return command[:2] == ("pip", "install")


def is_eden_memory(command: tuple[str, ...]) -> bool:
    return command[0] == "eden-memory"
