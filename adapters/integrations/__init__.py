"""Ready integrations with agent frameworks, each behind its own extra."""
