"""pymongo's exceptions, translated at the boundary into the library's own hierarchy.

No pymongo exception reaches a caller: a lost connection, a timeout, an overloaded server
or a lost search process becomes ``StoreUnavailableError`` (safe to retry), anything else
a ``StoreError`` that names the operation. Duplicate keys are not errors here: the store
turns them into its dedup behaviour before they get this far.
"""

from __future__ import annotations

import re

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


# Codes a server answers when it has no Atlas Search (mongot), as MongoDB's PHP library
# reads them: 31082 (8.0: "requires additional configuration"), 6047401 (7.0: "only allowed
# on MongoDB Atlas"), 115 (7.0 enterprise: "only supported with Atlas"), 7501001 (a 5.0
# sharded cluster: "$search not enabled!"). 59 and 40324 count only when they name a
# search command or stage: they are also what any unknown command or stage answers.
_SEARCH_UNSUPPORTED_CODES = frozenset({115, 6047401, 31082, 7501001})
_SEARCH_NAMES = r"(listSearchIndexes|search|searchMeta|vectorSearch)"
_COMMAND_NOT_FOUND = 59
_UNKNOWN_STAGE = 40324
_NO_SEARCH_COMMAND = re.compile(
    r"^no such (command|cmd): '?(createSearchIndexes|updateSearchIndex|dropSearchIndex"
    r"|listSearchIndexes)'?$"
)
_NO_SEARCH_STAGE = re.compile(r"^Unrecognized pipeline stage name: '?\$" + _SEARCH_NAMES + "'?$")
# Refusals that say "not now" rather than "no": the server shed load (489, and any error
# labelled SystemOverloadedError), or mongod lost its connection to the search process
# (mongot): HostUnreachable 6, HostNotFound 7, NetworkTimeout 89, SocketException 9001, as
# in "PlanExecutor error during aggregation :: caused by :: Error connecting to
# localhost:28000 :: caused by :: Connection refused" (code 6).
_TRANSIENT_CODES = frozenset({6, 7, 89, 9001, 489})
_OVERLOADED_LABEL = "SystemOverloadedError"
_DIMENSION_MOVED = re.compile(r"indexed with \d+ dimensions but queried with \d+")
# Codes of servers that cannot run multi-document transactions (standalone servers).
_NO_TRANSACTIONS_CODES = frozenset({20, 263})


def translate(error: PyMongoError, operation: str) -> StoreError:
    """The library's error for a pymongo error raised during ``operation``."""
    if isinstance(error, ConnectionFailure | ExecutionTimeout | WTimeoutError) or _refused_for_now(
        error
    ):
        return StoreUnavailableError(f"MongoDB unavailable during {operation}: {error}")
    if is_duplicate_key(error):
        return DuplicateKey(f"{operation} collided with a unique index: {error}")
    code = getattr(error, "code", None)
    suffix = f" (code {code})" if code is not None else ""
    return StoreError(f"MongoDB refused {operation}{suffix}: {error}")


def is_transient(error: PyMongoError) -> bool:
    """Worth retrying after a pause: the connection dropped (not the server selection timing
    out), the server shed load, or it lost its search process for a moment."""
    if isinstance(error, AutoReconnect):
        return not isinstance(error, ServerSelectionTimeoutError)
    return _refused_for_now(error)


def _refused_for_now(error: PyMongoError) -> bool:
    if not isinstance(error, OperationFailure):
        return False
    return error.code in _TRANSIENT_CODES or error.has_error_label(_OVERLOADED_LABEL)


def is_duplicate_key(error: PyMongoError) -> bool:
    return isinstance(error, DuplicateKeyError) or getattr(error, "code", None) == 11000


def search_unsupported(error: BaseException) -> bool:
    """True when the server has no Atlas Search: judged by the error's code, never its words.

    Atlas itself answers a query it refuses with words such as "is not allowed" (code 8000),
    so a message never decides. mongomock raises NotImplementedError for the stage.
    """
    if isinstance(error, NotImplementedError):
        return True
    if not isinstance(error, OperationFailure):
        return False
    message = str((error.details or {}).get("errmsg", error))
    if error.code == _COMMAND_NOT_FOUND:
        return _NO_SEARCH_COMMAND.match(message) is not None
    if error.code == _UNKNOWN_STAGE:
        return _NO_SEARCH_STAGE.match(message) is not None
    return error.code in _SEARCH_UNSUPPORTED_CODES


def dimension_moved(error: BaseException) -> bool:
    """Atlas's vector index holds another dimension than the query vector: it is being
    rebuilt for a re-embedded store (or was not yet). Atlas gives this no code of its own,
    so its words decide here, and only to serve one search exactly: "vector field is
    indexed with 1536 dimensions but queried with 384"."""
    return isinstance(error, OperationFailure) and _DIMENSION_MOVED.search(str(error)) is not None


def transactions_unsupported(error: BaseException) -> bool:
    """True when the deployment cannot run transactions (standalone server, mongomock)."""
    if isinstance(error, NotImplementedError):
        return True
    if isinstance(error, OperationFailure) and error.code in _NO_TRANSACTIONS_CODES:
        return True
    return "transaction numbers are only allowed" in str(error).lower()
