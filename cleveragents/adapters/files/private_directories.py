"""Directories only their owner may enter: the home, the artifact store.

The store holds tool output and conversations, which can be confidential, so what this creates is
0700 whatever the umask allows others. What already exists is left exactly as it is: a home a
user shared with a group on purpose is not tightened behind their back (the docs say how to).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PRIVATE_DIRECTORY_MODE = 0o700


def make_private_directory(path: Path) -> None:
    """Create `path` and each missing parent with mode 0700; existing ones are not changed."""
    missing: list[Path] = []
    current = path.absolute()
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process made it first
            os.mkdir(directory, PRIVATE_DIRECTORY_MODE)
