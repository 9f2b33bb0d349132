"""The error hierarchy, importable as ``eden_memory.errors`` (defined in the domain)."""

from eden_memory.domain.errors import *  # noqa: F403
from eden_memory.domain.errors import __doc__ as __doc__
