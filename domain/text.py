"""Rules for memory text: normalisation, hashing, word counts, XML-safe characters."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from eden_memory.domain.errors import InvalidInputError, InvalidMemoryTextError

_WHITESPACE = re.compile(r"\s+")
# Characters XML 1.0 cannot carry at all, not even as character references.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_TRAILING_PUNCT = re.compile(r"[\s.!;,]+$")

MAX_BLOB_CHARS = 100_000
MAX_LINE_CHARS = 2_000


def word_count(text: str) -> int:
    """Words as a reader counts them: runs of non-space characters."""
    return len(text.split())


def xml_safe(text: str) -> str:
    """``text`` without what XML cannot carry: for host text shown as is (instructions)."""
    return _NOT_XML.sub("", text)


def check_xml_safe(text: str) -> None:
    """Refuse characters that no XML document can carry, so a memory always renders."""
    bad = _NOT_XML.search(text)
    if bad is not None:
        code = ord(bad.group())
        raise InvalidMemoryTextError(
            f"memory text contains the control character U+{code:04X}, which XML cannot carry"
        )


def check_encodable(text: str, what: str) -> str:
    """Refuse a lone surrogate: it is no character, and no store can encode it (SQLite's
    JSON columns, BSON and the export all write UTF-8)."""
    bad = _SURROGATE.search(text)
    if bad is not None:
        raise InvalidInputError(
            f"{what} contains the lone surrogate U+{ord(bad.group()):04X}, which no store "
            "can encode"
        )
    return text


def single_line(text: str, *, max_words: int | None = None, what: str = "memory") -> str:
    """A fact or reflection is one line: whitespace collapsed, stripped, within limits."""
    check_xml_safe(text)
    cleaned = _WHITESPACE.sub(" ", text).strip()
    if not cleaned:
        raise InvalidMemoryTextError(f"{what} text is empty")
    if len(cleaned) > MAX_LINE_CHARS:
        raise InvalidMemoryTextError(
            f"{what} text has {len(cleaned)} characters; the limit is {MAX_LINE_CHARS}"
        )
    if max_words is not None and word_count(cleaned) > max_words:
        raise InvalidMemoryTextError(
            f"{what} text has {word_count(cleaned)} words; the limit is {max_words}"
        )
    return cleaned


def blob_text(text: str) -> str:
    """A consolidated blob keeps its lines and layout; only the ends are trimmed."""
    check_xml_safe(text)
    cleaned = text.strip()
    if len(cleaned) > MAX_BLOB_CHARS:
        raise InvalidMemoryTextError(
            f"consolidated text has {len(cleaned)} characters; the limit is {MAX_BLOB_CHARS}"
        )
    return cleaned


def normalize_for_hash(text: str) -> str:
    """Two texts that differ only in case, spacing, Unicode form or final punctuation match."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    collapsed = _WHITESPACE.sub(" ", folded).strip()
    return _TRAILING_PUNCT.sub("", collapsed)


def content_hash(text: str) -> str:
    """The exact-duplicate key of a memory: sha256 of its normalised text."""
    return hashlib.sha256(normalize_for_hash(text).encode("utf-8")).hexdigest()


def truncate_words(text: str, limit: int) -> str:
    """Cut text to at most ``limit`` words, at a line end where one is close enough.

    Lines are kept whole while they fit, so a sectioned blob loses its last items rather
    than ending mid-sentence.
    """
    if word_count(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for line in text.splitlines():
        words = word_count(line)
        if used + words > limit:
            if used == 0 or used < limit // 2:
                kept.append(" ".join(line.split()[: limit - used]))
            break
        kept.append(line)
        used += words
    return "\n".join(kept).strip()
