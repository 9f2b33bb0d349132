"""A pytest plugin that keeps the test suite off the network.

While tests run, any connection (or name lookup) to a host other than this machine raises
``NetworkAccessBlocked``, so no test can reach a real provider by accident: with a real key
in the environment, a missing ``base_url`` would otherwise spend money and leak test data.
Local stand-ins on 127.0.0.1 and Unix sockets keep working. Integration runs opt out with
``EDEN_MEMORY_INTEGRATION=1``.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Callable
from typing import Any

import pytest

FLAG = "EDEN_MEMORY_INTEGRATION"
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
_originals: dict[str, Any] = {}


class NetworkAccessBlocked(RuntimeError):
    """A test tried to leave this machine. Deliberately not an OSError, so no SDK retries it
    or turns it into a vague "connection error": the test fails with this message."""


def integration_enabled() -> bool:
    return os.environ.get(FLAG) == "1"


def is_local(host: object) -> bool:
    """True for loopback (and unspecified) addresses and the usual names for this machine."""
    if host is None or host in ("", b""):
        return True
    name = host.decode() if isinstance(host, bytes) else str(host)
    if name.lower() in _LOCAL_NAMES:
        return True
    try:
        address = ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or address.is_unspecified or bool(mapped and mapped.is_loopback)


def check(host: object, port: object = None) -> None:
    if not is_local(host):
        raise NetworkAccessBlocked(
            f"a test tried to reach {host!s}:{port!s}; tests may only use local stand-ins "
            f"(127.0.0.1). Set {FLAG}=1 to run tests against real services."
        )


def _check_address(address: object) -> None:
    if isinstance(address, tuple) and address:
        check(address[0], address[1] if len(address) > 1 else None)
    # Anything else (a str or bytes path) is a Unix socket: local by definition.


def _guard_method(name: str) -> Callable[..., Any]:
    original = getattr(socket.socket, name)

    def guarded(self: socket.socket, address: Any) -> Any:
        _check_address(address)
        return original(self, address)

    _originals[name] = original
    return guarded


def _guarded_create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
    check(address[0], address[1])
    return _originals["create_connection"](address, *args, **kwargs)


def _guarded_getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    check(host, port)
    return _originals["getaddrinfo"](host, port, *args, **kwargs)


def install() -> None:
    """Patch the socket module; idempotent."""
    if _originals:
        return
    socket.socket.connect = _guard_method("connect")  # type: ignore[method-assign]
    socket.socket.connect_ex = _guard_method("connect_ex")  # type: ignore[method-assign]
    _originals["create_connection"] = socket.create_connection
    _originals["getaddrinfo"] = socket.getaddrinfo
    socket.create_connection = _guarded_create_connection  # type: ignore[assignment]
    socket.getaddrinfo = _guarded_getaddrinfo


def uninstall() -> None:
    if not _originals:
        return
    socket.socket.connect = _originals.pop("connect")  # type: ignore[method-assign]
    socket.socket.connect_ex = _originals.pop("connect_ex")  # type: ignore[method-assign]
    socket.create_connection = _originals.pop("create_connection")
    socket.getaddrinfo = _originals.pop("getaddrinfo")


def pytest_configure(config: pytest.Config) -> None:
    if not integration_enabled():
        install()


def pytest_unconfigure(config: pytest.Config) -> None:
    uninstall()


def pytest_report_header(config: pytest.Config) -> str:
    if integration_enabled():
        return f"network guard: off ({FLAG}=1, real services reachable)"
    return f"network guard: on (only local connections; {FLAG}=1 lifts it)"
