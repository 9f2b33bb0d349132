"""Version 10: the keyword index keyed by partition (``keyword.partitions``), so a search
reads only the visible partitions' entries."""

from eden_memory.adapters.stores.sqlite.keyword.partitions import partition_keyword_index as upgrade

__all__ = ["upgrade"]
