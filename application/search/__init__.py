"""search_facts: the recipe (``recipe.py``) and its stages, one module per group.

The shapes a search takes and gives are in ``application/search/shapes.py``; they are
re-exported here, where hosts have always imported them from.
"""

from eden_memory.application.search.recipe import FactSearch
from eden_memory.application.search.shapes import (
    QueryDebug,
    SearchDebug,
    SearchMode,
    SearchResponse,
    SearchResult,
    check_queries,
    search_mode,
)

__all__ = [
    "FactSearch",
    "QueryDebug",
    "SearchDebug",
    "SearchMode",
    "SearchResponse",
    "SearchResult",
    "check_queries",
    "search_mode",
]
