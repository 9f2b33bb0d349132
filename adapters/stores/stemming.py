"""The stores' Porter stemmer is the domain's (``domain.stemming``): search's conflict rule
compares words with the same stems the keyword retrievers match."""

from eden_memory.domain.stemming import porter_stem

__all__ = ["porter_stem"]
