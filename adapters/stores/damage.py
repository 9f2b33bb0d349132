"""What the persistent stores say of a record that does not decode (issue 27).

A byte flipped on disk, a document edited by hand or written by another tool: the strict
domain models refuse it, or json, UTF-8 or a type check does. Each store names where the
record is (the SQLite file and table, the MongoDB collection) and why it failed, in a
``StoreCorruptedError``; never the stored text, which may be someone's erased words.
"""

from __future__ import annotations

from pydantic import ValidationError

# What decoding damaged data raises: pydantic's ValidationError, json's and UTF-8's decode
# errors are all ValueErrors; a field of another type gives TypeError, KeyError, IndexError
# or (times far out of range) OverflowError. Only decoding code runs where these are caught.
DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError, OverflowError)


def reason(exc: BaseException) -> str:
    """What failed, without the input that failed."""
    if isinstance(exc, ValidationError):
        first = exc.errors(include_input=False, include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{exc.title}{' ' + where if where else ''}: {first['msg']}"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text ({exc.reason} at byte {exc.start})"
    return f"{type(exc).__name__}: {str(exc)[:200]}"
