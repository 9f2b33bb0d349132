"""Runnable examples of hosting eden-memory: each runs as ``python examples/<name>.py``,
offline unless given ``--real`` (``tests/examples`` runs every one of them so)."""
