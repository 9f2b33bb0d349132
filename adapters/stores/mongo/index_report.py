"""What ``setup_indexes`` did, index by index, in a form a CLI can print."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from eden_memory.adapters.stores.mongo.compat import Document


@dataclass
class IndexReport:
    """What setup did, index by index (``collection.name``), and every definition."""

    definitions: list[Document] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)
    dry_run: bool = False

    @property
    def ready(self) -> bool:
        return not self.pending

    def lines(self) -> list[str]:
        out = [f"created  {n}" for n in self.created] + [f"kept     {n}" for n in self.kept]
        out += [f"updated  {n}" for n in self.updated]
        out += [f"skipped  {n}: {why}" for n, why in self.skipped.items()]
        return out + [f"pending  {n} (not READY with this definition yet)" for n in self.pending]

    def definitions_json(self) -> str:
        """Every index definition as JSON: what ``setup-indexes --dry-run`` prints."""
        return json.dumps(self.definitions, indent=2)
