"""A real language model on this machine: llama-cpp-python serving a model from PyPI."""
