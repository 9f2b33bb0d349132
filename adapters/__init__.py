"""Implementations of the ports (stores, embedders, LLMs, clocks) and the driving side."""
