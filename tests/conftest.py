"""Suite-wide pytest setup."""

# Tests reach local stand-ins only, unless EDEN_MEMORY_INTEGRATION=1 (see the module).
pytest_plugins = ["tests.network_guard"]
