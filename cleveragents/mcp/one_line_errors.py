"""Every failed tool call's message on one line, as the CLI prints its errors.

The tools' own errors are one line already; arguments that fail the input schema come back
from the SDK as pydantic's report, over several lines with a link per error. This middleware
folds that report into one line: ``budget: Input should be greater than or equal to 1 [...]``,
the errors joined by ``;``, without the links and without pydantic's internals (the bracket
``[type=literal_error, input_value='p50k', input_type=str]`` after each message).
"""

from __future__ import annotations

import re
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

_LINK = "For further information visit"
# pydantic's bracket after an error's message; the value may hold any character, so the
# bracket ends at the last `, input_type=NAME]` of the line.
_HEADER = re.compile(r"Error executing tool (\w+): \d+ validation errors? for \w+")
_INTERNALS = re.compile(r"\s*\[type=\w+,.*, input_type=\w+\]")


class OneLineErrors:
    """Server middleware: rewrites the text of an ``isError`` result of ``tools/call``."""

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method != "tools/call" or not isinstance(result, dict) or not result.get("isError"):
            return result
        content = result.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and isinstance(block.get("text"), str):
                    block["text"] = fold(block["text"])
        return result


def fold(message: str) -> str:
    """`message` on one line. pydantic's report (a header, then for each error its field on
    a line and the message indented below it, then a link) becomes ``invalid arguments for
    TOOL; field: message``."""
    parts: list[str] = []
    for line in message.splitlines():
        text = _INTERNALS.sub("", line.strip())
        header = _HEADER.fullmatch(text)
        if header is not None:
            text = f"invalid arguments for {header.group(1)}"
        if not text or text.startswith(_LINK):
            continue
        if line.startswith(" ") and parts:
            parts[-1] += ": " + text  # an error's message, under the field it is about
        else:
            parts.append(text)
    return " ".join("; ".join(parts).split())
