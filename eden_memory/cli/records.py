"""What ``facts`` and ``reflections`` share: an id given by its first characters, the edit
refused on a stale version, and the history table; one definition, registered per kind.

"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Protocol

import typer

from eden_memory.application.administration.admin import Admin
from eden_memory.application.service import MemoryService
from eden_memory.cli.output import rows, say
from eden_memory.cli.runtime import State

Agent = Annotated[str, typer.Option("--agent", "-a", help="Agent id.")]
Json = Annotated[bool, typer.Option("--json", help="One JSON object per line.")]


class Revision(Protocol):
    """One text a fact or a reflection has had."""

    @property
    def version(self) -> int: ...

    @property
    def content(self) -> str: ...

    @property
    def replaced_at(self) -> datetime: ...

    @property
    def reason(self) -> str: ...


@dataclass(frozen=True)
class RecordKind:
    """How one kind of record is reached through ``memory.admin``."""

    name: str  # "fact" or "reflection"
    seen_in: str  # the commands that show a record's version
    edited: str  # how an edit's line names the record ("fact " or "")
    resolve: Callable[[Admin, str, str], Awaitable[str]]
    history: Callable[[Admin, str, str], Awaitable[Sequence[Revision]]]
    edit: Callable[[Admin, str, str, str, str, int], Awaitable[Any]]

    def id_argument(self) -> Any:
        named = f"{self.name.capitalize()} id, or its first characters (4 or more) if no other "
        named += "has them."
        return typer.Argument(..., help=named, metavar=f"{self.name}_id")

    def version_option(self) -> Any:
        said = (
            f"The version your edit is based on (as {self.seen_in} gave it); a save on any "
            "other version is refused."
        )
        return typer.Option(..., "--expected-version", help=said)


def add_edit(app: typer.Typer, kind: RecordKind, help_text: str) -> None:
    """The ``edit`` command of ``kind``: resolve the id, save, say the new version."""

    def edit(
        ctx: typer.Context,
        agent: Agent,
        record_id: str = kind.id_argument(),
        text: str = typer.Argument(...),
        expected_version: int = kind.version_option(),
    ) -> None:
        async def work(memory: MemoryService) -> None:
            whole = await kind.resolve(memory.admin, agent, record_id)
            saved = await kind.edit(memory.admin, agent, whole, text, "cli edit", expected_version)
            say(f"{kind.edited}{saved.id} is now version {saved.version}: {saved.content}")

        ctx.ensure_object(State).run(work)

    app.command(help=help_text)(edit)


def add_history(app: typer.Typer, kind: RecordKind) -> None:
    """The ``history`` command of ``kind``: every text it has had, oldest first."""

    def history(
        ctx: typer.Context, agent: Agent, record_id: str = kind.id_argument(), as_json: Json = False
    ) -> None:
        async def work(memory: MemoryService) -> None:
            whole = await kind.resolve(memory.admin, agent, record_id)
            revisions = await kind.history(memory.admin, agent, whole)
            headers = ("version", "until", "content", "reason")
            rows(headers, history_rows(revisions), as_json)

        ctx.ensure_object(State).run(work)

    app.command(help=f"Every text the {kind.name} has had, oldest first.")(history)


def history_rows(revisions: Sequence[Revision]) -> list[list[str]]:
    last = len(revisions) - 1
    return [
        [
            str(r.version),
            "current" if i == last else r.replaced_at.isoformat(timespec="seconds"),
            r.content,
            r.reason,
        ]
        for i, r in enumerate(revisions)
    ]
