"""Reranker adapters (``ports/reranker.py``); the memory's own LLM is
``application.search.reranking``."""
