"""The contained-files port: opening a file beneath a workspace root, race-free.

The one way the application reads a file it was pointed at: the artifact store imports through
it, and artifact compression reads through it (`artifact_compression/artifact_reading.py`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import BinaryIO


@dataclass(frozen=True, slots=True)
class ContainedFile:
    """An open regular file inside the workspace, and its workspace-relative path."""

    handle: BinaryIO
    relative_path: str
    size_bytes: int


class ContainedFiles(ABC):
    @abstractmethod
    def open_beneath(self, root: str, path: str) -> ContainedFile:
        """Open `path` (relative to `root`, or absolute inside it) for reading.

        The check is made on file descriptors while opening, not on a path before opening, so
        a symlink swapped in between cannot leak a file from outside. ``..`` is resolved by
        the path's text against the root, never through a link: a path is judged by where it
        ends. Raises `WorkspaceEscapeError` for: a path that ends outside the root, absolute
        paths outside it
        (including sibling prefixes such as ``ws-evil`` next to ``ws``), symlinks (anywhere on
        the path), hard links (link count > 1), FIFOs, sockets and devices, NUL bytes.
        Raises `ArtifactNotFoundError` when nothing is there.
        """

    @abstractmethod
    def real_root(self, root: str) -> str:
        """`root` with its symlinks resolved, the directory `open_beneath` walks from: what
        messages name. Raises `InvalidInputError` when it is not a directory."""
