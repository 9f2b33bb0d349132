"""Contract suites: one per port, subclassed once per adapter (fakes included)."""
