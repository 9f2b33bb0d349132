"""pymongo's exceptions, translated at the boundary into the library's own hierarchy.

No pymongo exception reaches a caller: a lost connection or a timeout becomes
``StoreUnavailableError`` (safe to retry), anything else a ``StoreError`` that names the
operation. Duplicate keys are not errors here: the store turns them into its dedup
behaviour before they get this far.
"""

from __future__ import annotations

from pymongo.errors import (
    AutoReconnect,
    ConnectionFailure,
    DuplicateKeyError,
    ExecutionTimeout,
    OperationFailure,
    PyMongoError,
    ServerSelectionTimeoutError,
    WTimeoutError,
)

from eden_memory.domain.errors import ConflictError, StoreError, StoreUnavailableError


class DuplicateKey(ConflictError):
    """A write collided with a unique index: another record already holds that key."""


# Codes a server answers when it has no Atlas Search (mongot) behind it.
_SEARCH_UNSUPPORTED_CODES = frozenset({115, 40324, 6047401, 31082})
_SEARCH_UNSUPPORTED_WORDS = (
    "is not allowed",
    "only allowed on mongodb atlas",
    "requires additional configuration",
    "unrecognized pipeline stage",
    "not a valid operator",
)
# Codes of servers that cannot run multi-document transactions (standalone servers).
_NO_TRANSACTIONS_CODES = frozenset({20, 263})


def translate(error: PyMongoError, operation: str) -> StoreError:
    """The library's error for a pymongo error raised during ``operation``."""
    if isinstance(error, ConnectionFailure | ExecutionTimeout | WTimeoutError):
        return StoreUnavailableError(f"MongoDB unavailable during {operation}: {error}")
    if is_duplicate_key(error):
        return DuplicateKey(f"{operation} collided with a unique index: {error}")
    code = getattr(error, "code", None)
    suffix = f" (code {code})" if code is not None else ""
    return StoreError(f"MongoDB refused {operation}{suffix}: {error}")


def is_transient(error: PyMongoError) -> bool:
    """Worth retrying at once: the connection dropped, not the server selection timing out."""
    return isinstance(error, AutoReconnect) and not isinstance(error, ServerSelectionTimeoutError)


def is_duplicate_key(error: PyMongoError) -> bool:
    return isinstance(error, DuplicateKeyError) or getattr(error, "code", None) == 11000


def search_unsupported(error: BaseException) -> bool:
    """True when the server has no Atlas Search: the stage or the command is unknown to it.

    A plain server answers CommandNotSupported (115) or "unrecognized pipeline stage"
    (40324); mongomock raises NotImplementedError for the stage.
    """
    if isinstance(error, NotImplementedError):
        return True
    if not isinstance(error, OperationFailure):
        return False
    if error.code in _SEARCH_UNSUPPORTED_CODES:
        return True
    message = str(error).lower()
    return any(word in message for word in _SEARCH_UNSUPPORTED_WORDS)


def transactions_unsupported(error: BaseException) -> bool:
    """True when the deployment cannot run transactions (standalone server, mongomock)."""
    if isinstance(error, NotImplementedError):
        return True
    if isinstance(error, OperationFailure) and error.code in _NO_TRANSACTIONS_CODES:
        return True
    return "transaction numbers are only allowed" in str(error).lower()
