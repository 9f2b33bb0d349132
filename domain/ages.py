"""How old a memory is, in the short form a model reads easily."""

from __future__ import annotations

from datetime import datetime


def age_label(then: datetime, now: datetime) -> str:
    """``just now``, ``5m ago``, ``3h ago``, ``2d ago``; ``3y ago`` past a year."""
    seconds = (now - then).total_seconds()
    if seconds < 60:
        return "just now"
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes}m ago"
    hours = minutes // 60
    if hours < 24:
        return f"{hours}h ago"
    days = hours // 24
    if days < 365:
        return f"{days}d ago"
    return f"{days // 365}y ago"
