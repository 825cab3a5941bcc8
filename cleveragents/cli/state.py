"""What every command shares: the global options and a lazily built container."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import typer

from cleveragents.container import build_container

if TYPE_CHECKING:
    from cleveragents.container import Container


@dataclass
class CliState:
    database_url: str | None = None
    _container: Container | None = field(default=None, repr=False)

    def container(self, *, auto_migrate: bool = True) -> Container:
        """The container; the first command to ask decides whether the schema auto-upgrades."""
        if self._container is None:
            self._container = build_container(self.database_url, auto_migrate=auto_migrate)
        return self._container

    def close(self) -> None:
        # Disposes the engine if a command opened one; opens nothing otherwise.
        if self._container is not None:
            self._container.shutdown_resources()
            self._container = None


def state(ctx: typer.Context) -> CliState:
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState()
        root.call_on_close(root.obj.close)
    return root.obj
