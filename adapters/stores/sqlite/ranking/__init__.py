"""The ranking concern: ``SqliteRanking``, the ``FactRanking`` port."""
