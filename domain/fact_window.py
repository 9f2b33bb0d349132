"""What the context's recent facts leave out, said so that an empty context is not read as
an empty memory.

The context shows the FIFO: the newest ``fifo_limit`` facts formed within
``fifo_max_age_hours``. A store of a thousand facts a month old gives an empty context, and
every one of them is still found by search. The surfaces that show a context (the CLI, the MCP
tool, the console) say so with ``FactWindow.note``; the prompt itself does not
(``docs/record/decisions/errors.md``, "An empty context says what search still finds").
"""

from __future__ import annotations

from dataclasses import dataclass

from eden_memory.domain.settings import FactSettings


@dataclass(frozen=True)
class FactWindow:
    """How many of the facts a conversation may see its context's recent list shows."""

    shown: int  # facts in the context's recent list
    visible: int  # active facts of the conversation's fact scopes: what search finds
    settings: FactSettings

    @property
    def left_out(self) -> int:
        return max(self.visible - self.shown, 0)

    def note(self) -> str | None:
        """One line on the facts the recent list leaves out; None when it leaves none out."""
        rest = self.left_out
        if rest == 0:
            return None
        s = self.settings
        if not s.fifo_enabled or s.fifo_limit == 0:
            return f"the recent-facts list is off; {_facts(rest)} found by search"
        window = f"the newest {s.fifo_limit:,}, formed in the last {hours(s.fifo_max_age_hours)}"
        if self.shown == 0:
            older = _facts(rest, "older ")
            return f"no facts in the recent window ({window}); {older} found by search"
        return (
            f"the recent window shows {self.shown:,} of {self.visible:,} facts ({window}); "
            f"the other {rest:,} {'is' if rest == 1 else 'are'} found by search"
        )


def hours(value: float) -> str:
    """``7 days``, ``1 day``, ``36 hours``, ``1.5 hours``: a window's length as people say it."""
    if value >= 24 and value % 24 == 0:
        days = int(value // 24)
        return f"{days} day{'' if days == 1 else 's'}"
    return f"{value:g} hour{'' if value == 1 else 's'}"


def _facts(count: int, kind: str = "") -> str:
    return f"{count:,} {kind}fact is" if count == 1 else f"{count:,} {kind}facts are"
