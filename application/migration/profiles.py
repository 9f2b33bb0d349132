"""The agents' memory instructions a migration found, for the host to apply.

eden-memory stores no per-agent configuration: the host passes ``AgentMemoryConfig`` (with
``memory_instructions``) on every call. So the migration does not write instructions into
the store; it puts them in the run's report, and this call reads them back::

    profiles = await agent_profiles(journal, run_id)
    config = AgentMemoryConfig(agent_id, memory_instructions=profiles.get(agent_id, ""))
"""

from __future__ import annotations

from eden_memory.domain.errors import NotFoundError
from eden_memory.ports.migration import RunJournal


async def agent_profiles(journal: RunJournal, run_id: str) -> dict[str, str]:
    """agent id -> memory instructions, from a finished run's report."""
    report = await journal.report(run_id)
    if report is None:
        raise NotFoundError(f"migration run {run_id!r} has no report (unfinished or unknown)")
    profiles = report.get("agent_profiles", {})
    return {str(k): str(v) for k, v in profiles.items()}
