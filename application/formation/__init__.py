"""Memory formation: claim → facts → dedup → reflections → buffer → consolidation → invalidation."""
