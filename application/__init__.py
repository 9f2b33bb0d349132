"""Use cases over the ports: formation, context, search, lifecycle, management."""
