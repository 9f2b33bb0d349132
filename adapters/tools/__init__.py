"""Driving adapters: tool definitions for function-calling hosts."""
