"""Telemetry adapters. ``otel`` needs the ``otel`` extra and is imported only when chosen."""
