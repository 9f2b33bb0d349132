"""Entry point: one Typer app, errors as one clear line (never a traceback)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from eden_memory import __version__
from eden_memory.cli import facts, memory, reflections
from eden_memory.cli.extras import missing_extra
from eden_memory.cli.output import complain, say
from eden_memory.cli.runtime import State
from eden_memory.domain.errors import EdenMemoryError
from eden_memory.domain.problems import one_line

app = typer.Typer(
    name="eden-memory",
    help="Long-term memory for LLM agents: run the demo, inspect and maintain a store.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(facts.app, name="facts")
app.add_typer(reflections.app, name="reflections")
memory.register(app)


def _version(value: bool) -> None:
    if value:
        say(f"eden-memory {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    ctx: typer.Context,
    store: Annotated[
        Path | None,
        typer.Option(
            help="Embedded store file (default: $EDEN_MEMORY_STORE_PATH or .eden-memory/memory.db)."
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    ctx.obj = State(store_path=store)


# Typer's own error root (its bundled click's ``ClickException``): usage errors, bad values.
CommandLineError: type[Exception] = typer.BadParameter.__mro__[2]


def main() -> None:
    """Every error is one line on stderr, ours and the command line's (no usage box); so is
    a file the system refuses (a folder given for a file, a missing folder, no permission),
    and an optional package a command needs but no extra installed."""
    try:
        code = app(standalone_mode=False)
    except EdenMemoryError as error:
        complain(f"error: {error}")
        sys.exit(1)
    except ModuleNotFoundError as error:  # a command's optional package (pymongo for migrate-v1)
        named = missing_extra("this command", error)
        if named is None:
            raise
        complain(f"error: {named}")
        sys.exit(1)
    except OSError as error:
        complain(f"error: {system_refusal(error)}")
        sys.exit(1)
    except ValidationError as error:  # a value no command checked first: still one line
        complain(f"error: {one_line(error)}")
        sys.exit(1)
    except typer.Abort:
        complain("aborted")
        sys.exit(1)
    except CommandLineError as error:
        message = error.format_message()  # type: ignore[attr-defined]
        if message:  # empty when the help was shown instead (no arguments)
            complain(f"error: {message} (see --help)")
        sys.exit(getattr(error, "exit_code", 2))
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


def system_refusal(error: OSError) -> str:
    """``<path>: <why>`` (``notes: Is a directory``), as the shell's own tools say it."""
    why = error.strerror or str(error) or type(error).__name__
    if error.filename is None:
        return why
    return f"{error.filename}: {why}"
