"""Version 5: the keyword index made again with the Porter stemmer (``keyword.mending``)."""

from eden_memory.adapters.stores.sqlite.keyword.mending import stem_keyword_index as upgrade

__all__ = ["upgrade"]
