"""Driving adapters: the ``search_facts`` tool for function-calling hosts.

``search_facts.py`` is the face: definitions in every provider's format, the handler and
``tools_for``. The pieces live beside it: ``definitions`` (the schema, once, and its exports),
``calls`` (reading a tool call of any format), ``rendering`` (what the model reads back).
"""
