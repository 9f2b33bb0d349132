"""Loading Hugging Face models quietly and offline: what every local-model adapter sets first."""

from __future__ import annotations

import os


def offline_and_quiet() -> None:
    """Never download (a model comes from a package or a folder), and no progress bars or
    warnings on a command line that only reads memory. Set before the libraries are
    imported, which read these variables then; a host's own settings win."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
