"""Embedder adapters."""
