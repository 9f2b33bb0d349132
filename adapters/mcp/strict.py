"""MCP tools that refuse unknown arguments and tell the client why a call failed.

The SDK builds each tool's argument model from its signature and ignores arguments it does
not know; a misspelt ``top_k`` would then be dropped silently. Here the model forbids extra
fields and the published schema says ``additionalProperties: false``. An error of ours
becomes a ``ToolError`` carrying its message: the SDK shows the client a ``ToolError``'s
text, but only "Error executing tool" for any other exception. Arguments that do not fit the
schema are refused in one line naming the field (``domain.problems``), not in pydantic's
multi-line text with its documentation links.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from pydantic import ConfigDict, ValidationError, create_model

from eden_memory.domain.errors import EdenMemoryError
from eden_memory.domain.problems import one_line, reason

P = ParamSpec("P")
R = TypeVar("R")


class StrictArguments(ArgModelBase):
    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")


class StrictTool(Tool):
    """The SDK's tool, whose refusal of the arguments reads as one line."""

    async def run(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().run(*args, **kwargs)
        except ToolError as error:
            cause = error.__cause__
            if not isinstance(cause, ValidationError):  # the SDK's refusal of the arguments
                raise
            raise ToolError(
                f"Error executing tool {self.name}: invalid arguments: {one_line(cause)}"
            ) from cause


def strict_tool(
    fn: Callable[..., Awaitable[Any]],
    description: str | None = None,
    fields: dict[str, Any] | None = None,
    validators: dict[str, Any] | None = None,
) -> Tool:
    """A tool over ``fn`` whose arguments are ``fields`` (default: ``fn``'s own), strictly;
    ``validators`` go to ``create_model`` with them."""
    tool = StrictTool.from_function(_with_reasons(fn), name=fn.__name__, description=description)
    if fields is None:
        base = tool.fn_metadata.arg_model
        fields = {name: (f.annotation, f) for name, f in base.model_fields.items()}
    model = create_model(
        f"{fn.__name__}Arguments", __base__=StrictArguments, __validators__=validators, **fields
    )
    tool.fn_metadata.arg_model = model
    tool.parameters = model.model_json_schema(by_alias=True)
    return tool


def _with_reasons(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await fn(*args, **kwargs)
        except ToolError:
            raise
        except (EdenMemoryError, ValueError) as error:
            raise ToolError(f"{type(error).__name__}: {reason(error)}") from None

    return run
