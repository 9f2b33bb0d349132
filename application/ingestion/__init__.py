"""Direct ingestion: facts a host already has, checked and written with no LLM involved."""
