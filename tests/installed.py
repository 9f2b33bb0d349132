"""Run a program as the user of an installed eden-memory runs it.

``pip install -e .`` makes the package ``eden_memory`` importable, and nothing else of the
checkout: not ``examples``, not ``tests``. ``user_site`` builds that (a folder holding only a
link to this checkout's package, for ``PYTHONPATH``), optionally with packages missing (as
if their extra were not installed: importing them fails as it does then) and the network
closed (a program meant to run offline that tries to leave this machine fails loudly).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_WITHOUT = '''
import sys

WITHOUT = {without!r}


class NotInstalled:
    """``import name`` fails as it does when the package is not installed."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if any(name == gone or name.startswith(gone + ".") for gone in WITHOUT):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
'''

_OFFLINE = """
import ipaddress
import socket

_lookup, _connect = socket.getaddrinfo, socket.socket.connect


def _local(host):
    if host is None or host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(str(host).strip("[]")).is_loopback
    except ValueError:
        return False


def getaddrinfo(host, *args, **kwargs):
    if not _local(host if not isinstance(host, bytes) else host.decode()):
        raise RuntimeError(f"this program went online: it looked up {host!r}")
    return _lookup(host, *args, **kwargs)


def connect(self, address):
    if isinstance(address, tuple) and not _local(address[0]):
        raise RuntimeError(f"this program went online: it connected to {address!r}")
    return _connect(self, address)


socket.getaddrinfo = getaddrinfo
socket.socket.connect = connect
"""


def user_site(folder: Path, without: Sequence[str] = (), offline: bool = False) -> Path:
    """A folder for ``PYTHONPATH`` with this checkout's ``eden_memory`` and nothing else."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "eden_memory").symlink_to(ROOT / "eden_memory", target_is_directory=True)
    code = (_WITHOUT.format(without=tuple(without)) if without else "") + (
        _OFFLINE if offline else ""
    )
    if code:
        (folder / "sitecustomize.py").write_text(code, encoding="utf-8")
    return folder


def user_env(site: Path, **variables: str) -> dict[str, str]:
    """This environment without provider keys or eden-memory settings, ``site`` importable."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.endswith("_API_KEY") and not name.startswith("EDEN_MEMORY_")
    }
    return env | {"PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1", **variables}
