"""The four prompts of formation, written for this library.

Each module builds (system, prompt) for one call. Stored text is escaped with the same
rule as the memory context, so a memory or a message can never close a block early.
"""
