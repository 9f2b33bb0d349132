"""The ``eden-memory`` command: the demo, inspection and maintenance of a memory store.

Its own packages (typer, rich) come with the ``cli`` extra, so nothing here imports them
before the command runs: without the extra, ``eden-memory`` and ``python -m eden_memory`` say
which extra to install, in one line, instead of a traceback.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from eden_memory.cli.extras import missing_extra
from eden_memory.domain.errors import MissingExtraError

if TYPE_CHECKING:
    from typer import Typer

FEATURE = "eden-memory's command line"


def main() -> None:
    """The console script: the command line, or one line saying which extra it needs."""
    try:
        from eden_memory.cli.main import main as run
    except ModuleNotFoundError as missing:
        named = missing_extra(FEATURE, missing)
        if named is None:
            raise
        sys.exit(f"error: {_as_cli(named)}")
    except MissingExtraError as missing:  # the container's dependency-injector
        sys.exit(f"error: {_as_cli(missing)}")
    run()


def _as_cli(error: MissingExtraError) -> MissingExtraError:
    """The ``cli`` extra installs every package the command line imports at start."""
    return MissingExtraError(FEATURE, "cli", error.module)


def __getattr__(name: str) -> Typer:
    if name == "app":
        from eden_memory.cli.main import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "main"]
