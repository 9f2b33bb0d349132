"""Runnable examples of hosting eden-memory; each is run by ``tests/examples``."""
