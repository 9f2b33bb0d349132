"""Serve until stopped: the model server lives exactly as long as the command.

SIGTERM, SIGHUP and SIGINT (Ctrl-C, or ``kill -INT`` to this process alone) stop the server
this command started, during its start as after it, and the command exits with
128 + the signal's number; a server that exits by itself is an error. A second signal while
the server is being stopped is ignored, so it cannot interrupt the stop half way.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from eden_memory.domain.errors import ConfigurationError
from eden_memory.local_llm.server import ServerOptions, start, stop

STOPPING = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class Stopped(BaseException):
    """A stopping signal arrived (``BaseException``, as ``KeyboardInterrupt`` is)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def serve(
    interpreter: Path,
    model: Path,
    options: ServerOptions,
    announce: Callable[[], None],
) -> int:
    """Start the server, ``announce`` it, and wait; the command's exit code once stopped."""
    with _stopping_signals():
        try:
            process = start(interpreter, model, options)  # stops its process when interrupted
        except Stopped as why:
            return 128 + why.signum
        try:
            announce()
            code = process.wait()
        except Stopped as why:
            stop(process)
            return 128 + why.signum
    raise ConfigurationError(f"the model server exited by itself with code {code}")


@contextmanager
def _stopping_signals() -> Iterator[None]:
    """Each stopping signal raises ``Stopped`` once; later ones are ignored."""
    seen: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if not seen:
            seen.append(signum)
            raise Stopped(signum)

    previous = {s: signal.signal(s, on_signal) for s in STOPPING}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
