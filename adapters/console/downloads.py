"""The header that names a download: any agent id, in any script, as the file's name.

A header is Latin-1 on the wire, so an id such as ``名前`` cannot go in ``filename="…"`` as
it is. RFC 6266 gives both: an ASCII ``filename`` for old clients, and ``filename*`` with the
exact name in UTF-8, percent-encoded (RFC 8187, formerly 5987), which browsers prefer.
"""

from __future__ import annotations

from urllib.parse import quote

_PLAIN = frozenset("-_.")


def attachment(filename: str) -> str:
    """``attachment; filename="…"; filename*=UTF-8''…`` for ``filename``; ASCII throughout."""
    fallback = "".join(c if c.isascii() and (c.isalnum() or c in _PLAIN) else "_" for c in filename)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"
