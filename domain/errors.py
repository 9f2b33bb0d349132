"""The one error hierarchy of eden-memory.

Every error a caller can see is an ``EdenMemoryError``; no driver or SDK exception
(pymongo, openai, google.genai, sqlite3) crosses the adapter boundary untranslated::

    EdenMemoryError
    ├── ConfigurationError            settings that cannot work together
    │   └── MissingExtraError         an optional dependency is not installed
    ├── InvalidInputError             bad arguments from a host or a user (also a ValueError)
    │   ├── InvalidMemoryTextError    empty, oversize or non-XML text for a memory
    │   ├── SessionUsersError         a turn naming users its session was not recorded with
    │   └── NotFoundError             an id that names nothing (also a KeyError)
    ├── StoreError                    the store failed or refused
    │   ├── StoreUnavailableError     connection lost, timeout (safe to retry)
    │   ├── ConflictError             a compare-and-set or claim was lost to another worker
    │   │   └── StaleEditError        an edit based on a version that is no longer the stored one
    │   ├── EmbeddingSpaceError       vectors of another model or dimension than the store's
    │   └── StoreCorruptedError       stored data that does not decode (names file or collection)
    └── ProviderError                 an LLM or embedding provider failed
        ├── ProviderAuthError         missing or wrong credentials (names the variable)
        ├── ProviderRateLimitError    429 after the retries ran out
        ├── ProviderTimeoutError      no answer in time
        └── InvalidLLMOutputError     refusal, truncation, malformed or schema-violating output
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # a type only: every class of this module at run time is an error

    class Versioned(Protocol):
        """What a stale edit shows of the changed record: a fact, a reflection or a blob."""

        @property
        def version(self) -> int: ...

        @property
        def content(self) -> str: ...


class EdenMemoryError(Exception):
    """Root of every error raised by eden-memory."""


class ConfigurationError(EdenMemoryError):
    """Settings or wiring that cannot work."""


class MissingExtraError(ConfigurationError):
    """An adapter was selected whose optional dependency is not installed.

    The message is one line naming the extra and the command that installs it from the
    checkout (eden-memory is not on a package index)."""

    def __init__(self, feature: str, extra: str, module: str, alternative: str = "") -> None:
        super().__init__(
            f"{feature} needs the '{module}' package, in the eden-memory[{extra}] extra: "
            f'pip install -e ".[{extra}]" in the eden-memory checkout'
            + (f"; or {alternative}" if alternative else "")
        )
        self.extra = extra
        self.module = module


class InvalidInputError(EdenMemoryError, ValueError):
    """Arguments that can never succeed, rejected before anything is written."""


class InvalidMemoryTextError(InvalidInputError):
    """Text that cannot be stored as a memory: empty, too long, or not representable in XML."""


class SessionUsersError(InvalidInputError):
    """A turn that names users the session was not recorded with (another user's session id
    reused, or pending messages that would be filed as someone else's memory)."""


class NotFoundError(InvalidInputError, KeyError):
    """An id that names no memory in the caller's scope."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "not found"


class StoreError(EdenMemoryError):
    """The store failed or refused an operation."""


class StoreUnavailableError(StoreError):
    """The store could not be reached or timed out; the operation may be retried."""


class ConflictError(StoreError):
    """Another worker changed the record first (lost compare-and-set or claim)."""


class StaleEditError(ConflictError):
    """An edit based on a version that is no longer the stored one; nothing was written.

    Someone else (another tab, a consolidation) saved first. ``current`` is the record as it
    is now, so a caller can show the newer text and let the person redo the edit on it."""

    def __init__(self, what: str, based_on: int, current: Versioned) -> None:
        super().__init__(
            f"{what} changed since version {based_on}: it is version {current.version} now, "
            f"reading {current.content!r}. Nothing was saved; redo the edit on this version."
        )
        self.based_on = based_on
        self.current = current

    @property
    def current_version(self) -> int:
        return self.current.version


class EmbeddingSpaceError(StoreError):
    """Vectors from another embedding model or dimension than the ones already stored."""


class StoreCorruptedError(StoreError):
    """Stored data that does not decode: a damaged file, a record edited by hand.

    The message names the file (or collection) and the record. The store answers nothing
    from data it cannot read back exactly: a wrong answer would look like a right one.
    Retrying does not help; restore the file or collection from a backup."""


class ProviderError(EdenMemoryError):
    """An LLM or embedding provider failed."""


class ProviderAuthError(ProviderError):
    """Credentials are missing or rejected."""


class ProviderRateLimitError(ProviderError):
    """The provider kept answering 429 after every retry."""


class ProviderTimeoutError(ProviderError):
    """The provider did not answer in time."""


class InvalidLLMOutputError(ProviderError):
    """The model's answer cannot be used: refused, truncated, malformed or off-schema."""
