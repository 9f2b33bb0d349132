"""What an error may say where a user's words must not go: telemetry and the library's logs.

An error's message may quote what someone said: a provider's error body echoes the request,
a parse error quotes the model's answer, and the answer quotes the conversation. Spans, span
events, metrics and the library's log records therefore carry the error's type, the fixed
description its class gives (the first line of its docstring) and where it was raised (files,
lines and functions, never values). The message itself goes only to the caller who receives
the exception, or into telemetry when an operator turns content capture on.
"""

from __future__ import annotations

import traceback

MOST_FRAMES = 30  # the innermost ones, where the error was raised


def error_type(error: BaseException) -> str:
    """The class name, as ``error.type`` carries it (``ProviderError``)."""
    return type(error).__qualname__


def description(error: BaseException) -> str:
    """The first docstring line of the error's class (or of the nearest base that has one)."""
    for kind in type(error).__mro__:
        written = kind.__dict__.get("__doc__")
        if isinstance(written, str) and written.strip():
            return written.strip().splitlines()[0].strip()
    return "no description"  # pragma: no cover - object itself has a docstring


def summary(error: BaseException) -> str:
    """``ProviderError: An LLM or embedding provider failed.``: type and fixed description."""
    return f"{error_type(error)}: {description(error)}"


def frames(error: BaseException) -> str:
    """Python's traceback without the source lines and the message: where, never what.

    Source lines are left out as well: they are read from files (no I/O here), and the
    frames' names and line numbers already say where to look."""
    walked = list(traceback.walk_tb(error.__traceback__))[-MOST_FRAMES:]
    places = [
        f'  File "{frame.f_code.co_filename}", line {line}, in {frame.f_code.co_name}'
        for frame, line in walked
    ]
    return "\n".join(["Traceback (most recent call last):", *places, summary(error)])
