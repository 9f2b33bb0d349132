"""The facts concern: ``SqliteFacts``, the ``FactStore`` port, and the helpers of its SQL."""
