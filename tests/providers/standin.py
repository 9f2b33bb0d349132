"""A local HTTP server that stands in for a provider: real sockets, real HTTP, real JSON.

The SDKs are pointed at it (``base_url``) and run unmodified, so the tests cover what the
SDK sends and how it reads answers, not a mock of either. Each request is recorded, then
answered like a provider would: ``authorize`` first (a wrong key is refused before anything
else), then the next queued ``Reply``, then the provider's default ``respond`` (see
``openai_wire`` and ``gemini_wire``).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: Any = None  # JSON-able (sent as JSON), str (sent as UTF-8) or bytes (sent as they are)
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json; charset=UTF-8"
    delay_seconds: float = 0.0


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: Any  # the parsed JSON body, or None


Respond = Callable[[Recorded], Reply]
Authorize = Callable[[Recorded], Reply | None]


class StandIn:
    """Serves on 127.0.0.1 (a free port) until closed; use as a context manager."""

    def __init__(self, respond: Respond, authorize: Authorize) -> None:
        self.requests: list[Recorded] = []
        self._respond = respond
        self._authorize = authorize
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        # A short poll keeps shutdown (once per test) from costing half a second.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def queue(self, *replies: Reply) -> None:
        """Answer the next requests with ``replies``, in order, before the default."""
        with self._lock:
            self._queue.extend(replies)

    def paths(self) -> list[str]:
        return [request.path for request in self.requests]

    def answer(self, request: Recorded) -> Reply:
        with self._lock:
            self.requests.append(request)
        refusal = self._authorize(request)
        if refusal is not None:
            return refusal
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self._respond(request)


def _handler_for(standin: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            request = Recorded(
                method="POST",
                path=self.path,
                headers={name.lower(): value for name, value in self.headers.items()},
                body=json.loads(raw) if raw else None,
            )
            self._send(standin.answer(request))

        def _send(self, reply: Reply) -> None:
            if reply.delay_seconds:
                time.sleep(reply.delay_seconds)
            payload = _payload(reply.body)
            try:
                self.send_response(reply.status)
                self.send_header("content-type", reply.content_type)
                self.send_header("content-length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up first (a timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

    return Handler


def _payload(body: Any) -> bytes:
    if isinstance(body, bytes):
        return body
    return (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
