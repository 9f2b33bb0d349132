"""Use cases over the ports, a folder each: search, formation, context, ingestion, administration,
migration, messages; the service face and what every use case shares beside them."""
