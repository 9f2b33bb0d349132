"""The vectors of the embedded store, shared by the concerns that write and search them.

In the file: each partition's vector log, chunk rows written in the facts' transactions
(``chunks``, ``logs``; the writer's ``log_writes`` over ``log_appends`` and ``log_builds``, the
searcher's ``log_reads``). In memory: the index a search scans (``index``, ``partition``,
``scan``, ``half_kernels``).
"""
