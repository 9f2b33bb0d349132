"""Store adapters: in-memory, embedded (SQLite), MongoDB."""
