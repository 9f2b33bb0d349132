"""A real wire-protocol server for the MongoDB adapter's unit tests that need one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.unit.adapters.mongo import wire_server


@pytest.fixture(scope="session")
def wire_uri() -> Iterator[str]:
    if not wire_server.available():
        pytest.fail(
            f"{wire_server.SERVER} is not installed: pip install -e '.[dev]' (SecantusDB==0.7.0b3)"
        )
    with wire_server.wire_server() as uri:
        yield uri
