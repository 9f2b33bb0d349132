"""The kinds of number a setting holds, each bounded where it is declared.

A setting accepts only values the code can use, so a bad one is refused when it is given,
naming the setting, never when it is first used (an ``OverflowError`` on every context).
Every kind is finite, and its upper bound comes from where the number goes:

* a **duration** becomes a ``timedelta`` taken from or added to now: at most 100 years
  (``MAX_SECONDS``) keeps both inside ``datetime``'s years 1-9999 and every store's clock;
* a **count** becomes a store's ``LIMIT`` or is compared with one: SQLite's and BSON's
  integers are 64-bit (``MAX_COUNT``);
* a **depth** (results one search asks for) is multiplied by another depth, or by a top k:
  at most ``MAX_DEPTH`` keeps the product far inside 64 bits;
* **tokens** (the formation trigger's weighted count) stay under a trillion, past any
  conversation;
* a **factor** (a weight, a boost, a keyword score) multiplies scores: at most
  ``MAX_FACTOR`` keeps every score finite.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

MAX_COUNT = 2**63 - 1
MAX_DEPTH = 1_000_000
MAX_FACTOR = 1e6
MAX_YEARS = 100
MAX_SECONDS = MAX_YEARS * 365.25 * 24 * 3600.0
MAX_MINUTES = MAX_SECONDS / 60
MAX_HOURS = MAX_MINUTES / 60
MAX_DAYS = MAX_HOURS / 24

Unit = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
Factor = Annotated[float, Field(ge=0.0, le=MAX_FACTOR, allow_inf_nan=False)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
PositiveCount = Annotated[int, Field(ge=1, le=MAX_COUNT)]
Depth = Annotated[int, Field(ge=1, le=MAX_DEPTH)]
# Weighted tokens of pending messages (the formation trigger): a count, fractional.
Tokens = Annotated[float, Field(gt=0.0, le=1e12, allow_inf_nan=False)]
Seconds = Annotated[float, Field(gt=0.0, le=MAX_SECONDS, allow_inf_nan=False)]
SecondsOrZero = Annotated[float, Field(ge=0.0, le=MAX_SECONDS, allow_inf_nan=False)]
Minutes = Annotated[float, Field(gt=0.0, le=MAX_MINUTES, allow_inf_nan=False)]
Hours = Annotated[float, Field(gt=0.0, le=MAX_HOURS, allow_inf_nan=False)]
Days = Annotated[float, Field(gt=0.0, le=MAX_DAYS, allow_inf_nan=False)]
