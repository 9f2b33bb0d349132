"""Administration: what a host or an operator does to memory outside a conversation: records
read and edited, owners listed, a user erased, an agent exported and imported."""
