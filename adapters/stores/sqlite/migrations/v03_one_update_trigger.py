"""Version 3: one trigger keeps the keyword index in step with an update, removing then
adding (``keyword.mending`` tells why two did not), and a damaged index is mended."""

from eden_memory.adapters.stores.sqlite.keyword.mending import replace_update_triggers as upgrade

__all__ = ["upgrade"]
