"""The composition root: a ``dependency-injector`` container that builds a ``MemoryService``.

Needs the ``container`` extra. Hosts usually call ``open_memory``; tests and hosts that
want a port of their own override the container's provider::

    container = Container(config=EdenMemoryConfig(store="memory"))
    with container.llms.override(providers.Object({role: FakeLLM() for role in ModelRole})):
        async with running(container) as memory:
            ...
"""

from __future__ import annotations

from eden_memory.domain.errors import MissingExtraError

try:
    import dependency_injector  # noqa: F401
except ImportError as error:
    raise MissingExtraError("The container", "container", "dependency-injector") from error

from eden_memory.container.core import Container
from eden_memory.container.embedders import embedding_dimension
from eden_memory.container.running import running, shutdown

__all__ = ["Container", "embedding_dimension", "running", "shutdown"]
