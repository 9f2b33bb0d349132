"""LLM adapters."""
