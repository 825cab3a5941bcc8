"""How every tool reaches the engine: one call at a time on a worker thread, its expected
errors turned into tool errors of one line.

One at a time because the engine is not built for concurrent calls: the container builds its
singletons on first use, SQLite takes one writer, and a compaction holds a transcript several
times over. A worker thread because the services block (files, the database, the tokenizer)
and the server must go on reading the client's messages meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import anyio
import anyio.to_thread
from mcp.server.mcpserver.exceptions import ToolError

from cleveragents.domain.errors import CleverAgentsError

if TYPE_CHECKING:
    from cleveragents.container import Container

Result = TypeVar("Result")


class Engine:
    """The container the tools use, the workspace every path a tool takes must end inside,
    and the one lane their calls go through."""

    def __init__(self, container: Container, workspace: str) -> None:
        self.container = container
        self.workspace = workspace
        self._lane: anyio.CapacityLimiter | None = None

    async def run(self, work: Callable[[], Result]) -> Result:
        """`work()` on a worker thread, after any call still running. A domain error (bad
        input, an unknown id, the store unreachable) or an `OSError` becomes a `ToolError`
        with its message on one line; anything else is a bug, which the server reports to the
        client as a failed call and logs, with its traceback, on stderr."""
        if self._lane is None:  # made inside the event loop, which anyio prefers
            self._lane = anyio.CapacityLimiter(1)
        try:
            return await anyio.to_thread.run_sync(work, limiter=self._lane)
        except CleverAgentsError as error:
            raise ToolError(one_line(str(error))) from error
        except OSError as error:  # a full disk, an unreadable file: the machine's, not a bug
            where = f": {error.filename}" if error.filename else ""
            raise ToolError(one_line(f"{error.strerror or error}{where}")) from error


def one_line(message: str) -> str:
    return " ".join(message.split())


def refuse(message: str) -> ToolError:
    """A tool error for input the tool itself rejects (before the engine is asked)."""
    return ToolError(one_line(message))
