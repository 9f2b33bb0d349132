"""The schema's versions, one module each: ``v01_layout`` makes a new file, and each later
module's ``upgrade`` takes a file of the version before it to its own.

``PRAGMA user_version`` holds a file's version; ``schema.prepare`` runs the steps a file
lacks, in order, in one write transaction. A new version is a new module here, a line in
``MIGRATIONS`` and ``SCHEMA_VERSION`` moved on; an old module is never edited, since a file
made by its release must still upgrade step by step.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping

from eden_memory.adapters.stores.sqlite.migrations import (
    v02_fact_partitions,
    v03_one_update_trigger,
    v04_formation_plans,
    v05_stemmed_keywords,
    v06_listing_order,
    v07_vector_files,
    v08_owner_listing,
    v09_chained_vector_files,
    v10_keyword_partitions,
    v11_vectors_in_rows,
    v12_session_contexts,
    v13_who_was_present,
)

Migration = Callable[[sqlite3.Connection], None]

# MIGRATIONS[v] upgrades a version-v file to v + 1; a new file is made at version 1 and
# upgraded like any other.
MIGRATIONS: Mapping[int, Migration] = {
    1: v02_fact_partitions.upgrade,
    2: v03_one_update_trigger.upgrade,
    3: v04_formation_plans.upgrade,
    4: v05_stemmed_keywords.upgrade,
    5: v06_listing_order.upgrade,
    6: v07_vector_files.upgrade,
    7: v08_owner_listing.upgrade,
    8: v09_chained_vector_files.upgrade,
    9: v10_keyword_partitions.upgrade,
    10: v11_vectors_in_rows.upgrade,
    11: v12_session_contexts.upgrade,
    12: v13_who_was_present.upgrade,
}
SCHEMA_VERSION = len(MIGRATIONS) + 1
