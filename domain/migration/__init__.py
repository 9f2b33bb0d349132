"""The v1 migration's pure rules: which v1 values are usable, and as what."""
