"""The file handling the CLI does beside the services, chosen here, at the composition root,
so that no driver names an adapter (an import contract holds them to it): a named file (or
standard input) read whole but never past a limit, and an output file written whole or not
at all, never replacing an input."""

from __future__ import annotations

from cleveragents.adapters.files.safe_write import write_file
from cleveragents.adapters.input_files.bounded_reading import read_bounded

__all__ = ["read_bounded", "write_file"]
