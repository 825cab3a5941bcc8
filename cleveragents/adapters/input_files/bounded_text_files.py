"""Text files read whole, bounded and as UTF-8, by path (the Python API's budget planner: its
documents and weights file)."""

from __future__ import annotations

from cleveragents.adapters.input_files.bounded_reading import read_bounded
from cleveragents.application.services.budget.budget_planning import (
    MAX_DOCUMENT_BYTES,
    MAX_WEIGHTS_BYTES,
)
from cleveragents.domain.errors import InvalidInputError


class BoundedTextFiles:
    """Reads each file whole up to its limit (one byte past it refuses the file, whatever it
    is: a regular file, a FIFO, a device); `InvalidInputError` when it is larger, missing,
    unreadable or not UTF-8."""

    def document(self, path: str) -> str:
        return _text(path, MAX_DOCUMENT_BYTES, "documents")

    def weights_file(self, path: str) -> str:
        return _text(path, MAX_WEIGHTS_BYTES, "weights files")


def _text(path: str, limit: int, what: str) -> str:
    if path == "-":  # a path, never standard input: the server's is its protocol
        raise InvalidInputError("- is not a file here: give the document's path")
    data = read_bounded(path, limit, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidInputError(
            f"{path} is not UTF-8 text (bad byte at offset {error.start})"
        ) from None
