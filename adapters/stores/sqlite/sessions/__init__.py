"""The sessions concern: ``SqliteSessions``, the ``SessionStore`` port (turns and claims)."""
