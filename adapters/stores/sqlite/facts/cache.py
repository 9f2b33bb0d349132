"""Parsed facts, remembered by the reader thread between searches.

Validating a fact's JSON costs tens of microseconds, as much as ranking thousands of vectors;
a search returning 20 facts would spend more time parsing than scanning. Every write of a
fact's record stamps its row with a new ``seq`` (see ``revisions``), so a cached fact is
reused exactly while its row's stamp is unchanged; the access counters, which change without
a new stamp, are always taken from the row.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from eden_memory.adapters.stores.sqlite.facts.rows import fact_from_row, with_counters
from eden_memory.domain.models import Fact


class FactCache:
    def __init__(self, capacity: int = 2048) -> None:
        self._capacity = capacity
        self._facts: OrderedDict[str, tuple[int, Fact]] = OrderedDict()

    def fact(self, row: Sequence[Any]) -> Fact:
        """The fact of a ``FACT_COLUMNS`` row, parsed only if its stamp is new."""
        fact_id, seq = row[0], row[1]
        hit = self._facts.get(fact_id)
        if hit is not None and hit[0] == seq:
            fact = with_counters(hit[1], row)
            self._facts.move_to_end(fact_id)
        else:
            fact = fact_from_row(row)
        self._facts[fact_id] = (seq, fact)
        if len(self._facts) > self._capacity:
            self._facts.popitem(last=False)
        return fact

    def clear(self) -> None:
        self._facts.clear()
