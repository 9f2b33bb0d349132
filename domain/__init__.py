"""The pure core of eden-memory: values and rules, no I/O, no async, no clock.

Everything here takes ``now`` and ids as arguments and returns decisions; the application
layer carries them out through the ports.
"""
