"""Reading the artifact to compress: opened once, race-free, inside its work directory.

The file is opened through the `ContainedFiles` port, the artifact store's descriptor-based
containment: a ``..``, a symlink (wherever it points), a hard link, a FIFO or a device is
refused at the moment of the open, so no swap between a check and the open can leak a file from
outside. Every later pass (the binary sniff, the token count, the text, the lines) reads that
same descriptor; nothing is looked up by path again.

An escaping path is answered exactly like a missing file (`ArtifactNotFoundError`, the same
message), so a caller learns nothing about what lies outside, not even whether it exists.
"""

from __future__ import annotations

import codecs
import io
import os
import threading
from collections.abc import Generator, Iterator
from contextlib import closing, contextmanager
from types import TracebackType
from typing import BinaryIO

from cleveragents.application.ports.contained_files import ContainedFiles
from cleveragents.domain.artifact import CompressedArtifact
from cleveragents.domain.errors import ArtifactNotFoundError, WorkspaceEscapeError

BINARY_SNIFF_BYTES = 8192
READ_CHUNK_BYTES = 1 << 20
MAX_LINE_CHARS = 1 << 20
HEAD_LINE_LIMIT = 1 << 16
"""How far a head read to whole lines may run past its cut to end its last line."""
STDIN_LOCATION = "standard input"


class ReadableArtifact:
    """An open artifact. Text is UTF-8; invalid bytes are decoded as U+FFFD.

    Each pass starts again at the first byte and keeps its own position, so passes may be
    interleaved (a line iterator left open while the head is read) and may run on other
    threads: a read is a seek and a read under one lock.
    """

    def __init__(self, handle: BinaryIO, location: str, size_bytes: int) -> None:
        self._handle = handle
        self._location = location
        self._size = size_bytes
        self._lock = threading.Lock()

    @property
    def location(self) -> str:
        """Where the artifact is, for messages: the resolved work directory joined with the
        path inside it (or `STDIN_LOCATION`)."""
        return self._location

    @property
    def size_bytes(self) -> int:
        """The size when opened."""
        return self._size

    def is_binary(self) -> bool:
        """Whether the artifact looks binary: a NUL byte in its first 8 KiB."""
        return b"\0" in self._read_at(0, BINARY_SNIFF_BYTES)

    def read_text(self) -> str:
        """The whole text."""
        return b"".join(self._blocks(READ_CHUNK_BYTES)).decode("utf-8", errors="replace")

    def iter_text(self, chunk_chars: int = READ_CHUNK_BYTES) -> Generator[str, None, None]:
        """The text in chunks of at most `chunk_chars` characters, holding about one chunk.

        Decoded incrementally: a character whose bytes straddle two reads comes whole in the
        later chunk, never as two replacement characters.
        """
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        for block in self._blocks(max(chunk_chars, 1)):
            if text := decoder.decode(block):
                yield text
        if tail := decoder.decode(b"", final=True):
            yield tail

    def iter_lines(self) -> Generator[str, None, None]:
        """The text line by line, each with its line ending; a line ends after ``\\n`` (so a
        CRLF line keeps its ``\\r\\n``), the lines the artifact store numbers in `read_lines`.

        A line longer than `MAX_LINE_CHARS` comes in pieces of that size, so a log that is one
        enormous line is still read in bounded memory; only its last piece ends with ``\\n``,
        so counting the items that end with one counts lines.
        """
        pending = ""
        for chunk in self.iter_text():
            pending += chunk
            *complete, pending = pending.split("\n")
            for line in complete:
                yield from _pieces(line + "\n")
            while len(pending) >= MAX_LINE_CHARS:
                yield pending[:MAX_LINE_CHARS]
                pending = pending[MAX_LINE_CHARS:]
        if pending:
            yield pending

    def head(self, characters: int, *, whole_lines: bool = False) -> str:
        """The first `characters` of the text; with `whole_lines`, on to the end of the last
        line begun (up to `HEAD_LINE_LIMIT` more)."""
        parts: list[str] = []
        held = 0
        limit = characters + (HEAD_LINE_LIMIT if whole_lines else 0)
        with closing(self.iter_text(min(max(characters, 1), READ_CHUNK_BYTES))) as chunks:
            for chunk in chunks:
                parts.append(chunk)
                held += len(chunk)
                if held >= limit or (held >= characters and not whole_lines):
                    break
                if held >= characters and "".join(parts).find("\n", characters) >= 0:
                    break
        head = "".join(parts)
        if not whole_lines:
            return head[:characters]
        end = head.find("\n", characters)
        return head[: end + 1] if end >= 0 else head[:limit]

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> ReadableArtifact:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _blocks(self, block_bytes: int) -> Generator[bytes, None, None]:
        position = 0
        while block := self._read_at(position, block_bytes):
            position += len(block)
            yield block

    def _read_at(self, position: int, size: int) -> bytes:
        with self._lock:
            self._handle.seek(position)
            return self._handle.read(size)


def open_artifact(files: ContainedFiles, workdir: str, artifact_path: str) -> ReadableArtifact:
    """The artifact at `artifact_path`, relative to `workdir` or absolute inside it.

    Raises `InvalidInputError` when `workdir` is not a directory, and `ArtifactNotFoundError`
    when there is no regular file there or the path escapes the work directory: both give the
    same error and message, so nothing outside leaks, not even whether it exists.
    """
    root = files.real_root(workdir)
    with refused_as_not_found(root, artifact_path):
        contained = files.open_beneath(workdir, artifact_path)
    location = f"{root}/{contained.relative_path}"
    return ReadableArtifact(contained.handle, location, contained.size_bytes)


@contextmanager
def refused_as_not_found(root: str, artifact_path: str) -> Iterator[None]:
    """Any refusal to open `artifact_path` in the block (nothing there, an escaping path, a
    symlink, a hard link, a FIFO) raised as the one `ArtifactNotFoundError`, located against
    the resolved work directory `root`.

    For every open of the same path: `--store` opens the file a second time to import it, and
    a file swapped for a symlink between the two opens must get the same answer as one that
    was a symlink from the start, not the store's own refusal."""
    try:
        yield
    except ArtifactNotFoundError as missing:
        location = _location(root, artifact_path, missing.location)
        raise ArtifactNotFoundError(artifact_path, location) from None
    except WorkspaceEscapeError:
        # `from None`: the refusal's reason (a symlink, a hard link) stays out of the answer.
        raise ArtifactNotFoundError(artifact_path, _location(root, artifact_path, None)) from None


def artifact_from_bytes(data: bytes, location: str = STDIN_LOCATION) -> ReadableArtifact:
    """Bytes already read (standard input) as an artifact, read by the same rules as a file."""
    return ReadableArtifact(io.BytesIO(data), location, len(data))


def binary_refusal(artifact_name: str, location: str) -> tuple[CompressedArtifact, str]:
    """The answer to a binary artifact (the not-found response's shape) and its one-line
    error, the same for a file and for standard input."""
    content = f"[ERROR: artifact is binary, not compressed: {location}]"
    refusal = CompressedArtifact(
        artifact_name=artifact_name,
        raw_tokens=0,
        compacted_tokens=0,
        truncated=True,
        content=content,
    )
    return refusal, f"{location} is a binary file, not text"


def _location(root: str, artifact_path: str, found_location: str | None) -> str:
    """Where a refused path would be: a relative path joined to the resolved work directory
    as given (an escaping one and a missing one read the same); an absolute one as the
    containment located it when it got that far, else as given."""
    if not os.path.isabs(artifact_path):
        return f"{root}/{artifact_path}"
    return found_location or artifact_path


def _pieces(line: str) -> Generator[str, None, None]:
    for start in range(0, len(line), MAX_LINE_CHARS):
        yield line[start : start + MAX_LINE_CHARS]
