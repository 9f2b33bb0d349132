"""Content as a list of typed blocks: OpenAI content parts and Anthropic content blocks.

Both put text in ``{"type": "text", "text": ...}``; OpenAI adds ``input_text``,
``output_text`` and ``refusal``, Anthropic ``tool_use`` and ``tool_result``. Media become a
short placeholder (``[image]``) so the model knows something was shown; reasoning blocks are
left out (they are the model's scratchpad, not the conversation).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from eden_memory.application.messages.draft import Problems, called, join

_TEXT = {"text": "text", "input_text": "text", "output_text": "text", "refusal": "refusal"}
_MEDIA = {
    "image": "[image]",
    "image_url": "[image]",
    "input_image": "[image]",
    "input_audio": "[audio]",
    "audio": "[audio]",
    "document": "[document]",
    "file": "[file]",
    "input_file": "[file]",
}
_SKIPPED = {"thinking", "redacted_thinking"}


def blocks_text(blocks: Sequence[object], path: str, problems: Problems) -> str:
    """The text of a block list, tool calls and results included."""
    return join([_block(block, f"{path}[{i}]", problems) for i, block in enumerate(blocks)])


def only_tool_results(blocks: Sequence[object]) -> bool:
    """Whether a message is nothing but tool results (Anthropic sends them as a user turn)."""
    return bool(blocks) and all(
        isinstance(b, Mapping) and b.get("type") == "tool_result" for b in blocks
    )


def _block(block: object, path: str, problems: Problems) -> str:
    if isinstance(block, str):
        return block
    if not isinstance(block, Mapping):
        problems.add(path, f"must be a content block object, got {type(block).__name__}")
        return ""
    kind = block.get("type")
    if kind in _TEXT:
        return _text(block, _TEXT[kind], path, problems)
    if kind in _MEDIA:
        return _MEDIA[kind]
    if kind == "tool_use":
        return called(block.get("name", "?"), block.get("input", {}))
    if kind == "tool_result":
        return _tool_result(block, path, problems)
    if kind in _SKIPPED:
        return ""
    problems.add(f"{path}.type", f"unknown content block type {kind!r}")
    return ""


def _text(block: Mapping[str, Any], key: str, path: str, problems: Problems) -> str:
    value = block.get(key)
    if isinstance(value, str):
        return value
    problems.add(f"{path}.{key}", "missing or not a string")
    return ""


def _tool_result(block: Mapping[str, Any], path: str, problems: Problems) -> str:
    content = block.get("content", "")
    if isinstance(content, list):
        content = blocks_text(content, f"{path}.content", problems)
    elif not isinstance(content, str):
        problems.add(f"{path}.content", "must be a string or a list of blocks")
        return ""
    return f"[tool error] {content}" if block.get("is_error") else content
