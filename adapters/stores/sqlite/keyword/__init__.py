"""The keyword index (FTS5 over the active facts) and every statement that touches it.

``partitions``: the index keyed by partition, kept in step with the fact rows and read by
rowid ranges; ``scoring``: the query a search runs and how its BM25 scores are read;
``mending``: the tokenizers, and the checks and rebuilds of the older layouts that the
schema's upgrades (``migrations``) use.
"""
