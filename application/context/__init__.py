"""Context: the memory XML for a prompt, assembled, cached and served to the session's callers."""
