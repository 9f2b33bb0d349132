"""Who contributed what to an agent's memory: the operator's view of provenance."""

from __future__ import annotations

from dataclasses import dataclass, field

from eden_memory.application.administration.erasure import every_fact
from eden_memory.domain.ids import AgentId, UserId
from eden_memory.domain.models import Fact, Reflection
from eden_memory.domain.scopes import ScopeKey
from eden_memory.ports.stores import Stores


@dataclass(frozen=True, order=True)
class BlobVersion:
    """A version of a scope key's blob that absorbed the user's notes."""

    key: ScopeKey
    version: int


@dataclass
class Contributions:
    facts: list[Fact] = field(default_factory=list)
    notes: list[Reflection] = field(default_factory=list)
    blob_versions: list[BlobVersion] = field(default_factory=list)


async def contributions_of(stores: Stores, agent: AgentId, user: UserId) -> Contributions:
    """Facts whose contributors name the user (formed, rewritten or retired by their words),
    notes formed from their messages, and each blob version that absorbed one of those notes
    (or, for a blob whose notes are gone, its current version if it still names them)."""
    found = Contributions()
    async for fact in every_fact(stores, agent):
        if user in fact.contributors:
            found.facts.append(fact)
    every = await stores.buffers.list_reflections(agent, None, include_absorbed=True)
    found.notes = [r for r in every if user in r.source_user_ids]
    versions = {
        BlobVersion(r.key, r.absorbed_into_version)
        for r in found.notes
        if r.absorbed and r.absorbed_into_version is not None
    }
    for blob in await stores.note_records.list_consolidated(agent):
        if user in blob.source_user_ids and not any(v.key == blob.key for v in versions):
            versions.add(BlobVersion(blob.key, blob.version))
    found.blob_versions = sorted(versions)
    return found
