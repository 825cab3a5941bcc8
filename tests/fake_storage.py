"""In-memory fakes of the artifact store's storage ports: files, blobs, a secret scanner.

Like the fakes in `tests/fakes.py`, they subclass the port ABCs and keep each port's contract:
`FakeContainedFiles` refuses what the real adapter refuses that can exist in memory (``..``,
absolute paths outside the root, NUL bytes) and answers a missing file as the adapter does;
`FakeBlobStorage` publishes a blob only on `commit`, under the SHA-256 of its bytes, one blob
per content; `FakeSecretScanner` finds one made-up credential format, across chunk boundaries.
There are no symlinks, hard links or processes in memory, so what the real adapters do about
those is tested against them (tests/integration), not here.
"""

from __future__ import annotations

import hashlib
import io
import posixpath
import re
from collections.abc import Iterator
from typing import BinaryIO

from cleveragents.application.ports.blob_storage import (
    BlobMissingError,
    BlobStorage,
    BlobWriter,
    TempOutputFolder,
)
from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.contained_files import ContainedFile, ContainedFiles
from cleveragents.application.ports.secret_scanner import (
    ALLOW_MARKER,
    SecretMatch,
    SecretScan,
    SecretScanner,
    fingerprint,
)
from cleveragents.domain.errors import (
    ArtifactNotFoundError,
    InvalidInputError,
    WorkspaceEscapeError,
)
from cleveragents.domain.secrets import SecretFinding, SecretKind

FAKE_RULE = "fake-key"
# The one credential the fake scanner knows: `FAKEKEY-` and at least 8 letters or digits.
FAKE_KEY = re.compile(rb"FAKEKEY-[A-Za-z0-9]{8,}")
STORE_ROOT = "/fake-store"


class FakeContainedFiles(ContainedFiles):
    """Files held in a dict by absolute path. `write` puts one there (a tool's output, a
    workspace's file); `opened` lists the paths opened, in order."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.directories: set[str] = {"/"}
        self.opened: list[str] = []

    def mkdir(self, path: str) -> None:
        """A directory (and its parents), empty until a file is written beneath it."""
        path = _absolute(path)
        while path not in self.directories:
            self.directories.add(path)
            path = posixpath.dirname(path)

    def write(self, path: str, data: bytes) -> None:
        path = _absolute(path)
        self.mkdir(posixpath.dirname(path))
        self.files[path] = data

    def remove(self, path: str) -> None:
        self.files.pop(posixpath.normpath(path), None)

    def open_beneath(self, root: str, path: str) -> ContainedFile:
        if "\0" in path:
            raise WorkspaceEscapeError(f"path {path!r} contains a NUL byte")
        real_root = self.real_root(root)
        if ".." in path.split("/"):  # resolved by the text, as the real adapter does
            anchored = path if posixpath.isabs(path) else posixpath.join(real_root, path)
            path = posixpath.normpath(anchored)
            if not posixpath.isabs(path) or not (path + "/").startswith(real_root + "/"):
                raise WorkspaceEscapeError(f"path {path!r} ends outside the workspace")
        parts = [part for part in path.split("/") if part not in ("", ".")]
        if posixpath.isabs(path):
            prefix = [part for part in real_root.split("/") if part]
            if parts[: len(prefix)] != prefix:
                raise WorkspaceEscapeError(
                    f"absolute path {path!r} is outside the workspace {real_root}"
                )
            parts = parts[len(prefix) :]
        relative = "/".join(parts)
        location = f"{real_root}/{relative}" if relative else real_root
        data = self.files.get(location) if relative else None
        if data is None:  # nothing there, or a directory
            raise ArtifactNotFoundError(path, location)
        self.opened.append(location)
        return ContainedFile(io.BytesIO(data), relative, len(data))

    def real_root(self, root: str) -> str:
        if "\0" in root:
            raise InvalidInputError(f"work directory {root!r} contains a NUL byte")
        real = posixpath.normpath(posixpath.join("/", root))
        if real not in self.directories:
            raise InvalidInputError(f"work directory not found: {root}")
        return real


def _absolute(path: str) -> str:
    if not posixpath.isabs(path):
        raise ValueError(f"the fake holds files by absolute path, not {path!r}")
    return posixpath.normpath(path)


class _FakeWriter(BlobWriter):
    def __init__(self, storage: FakeBlobStorage) -> None:
        self._storage = storage
        self._data: bytearray | None = bytearray()
        storage.staging.append(self)

    def write(self, data: bytes) -> None:
        if self._data is None:
            raise RuntimeError("the blob was already committed or aborted")
        self._data += data

    def commit(self, sha256: str) -> None:
        if self._data is None:
            raise RuntimeError("the blob was already committed or aborted")
        data = bytes(self._data)
        # Content-addressed: a blob is named by the SHA-256 of its bytes, and by nothing else.
        if hashlib.sha256(data).hexdigest() != sha256:
            raise ValueError(f"blob {sha256} is not the SHA-256 of the bytes written")
        self._storage.publish(sha256, data)
        self._finish()

    def abort(self) -> None:
        if self._data is not None:
            self._storage.aborted += 1
        self._finish()

    def _finish(self) -> None:
        self._data = None
        if self in self._storage.staging:
            self._storage.staging.remove(self)


class FakeBlobStorage(BlobStorage):
    """Blobs in a dict, stamped with `clock` when published or reused. Temporary outputs are
    files of `files` under ``/fake-store/temp/<id>/output``, as the real stores' are local
    files; a test plays the tool by writing one there."""

    def __init__(self, files: FakeContainedFiles, clock: Clock) -> None:
        self.blobs: dict[str, bytes] = {}
        self.modified: dict[str, float] = {}
        self.staging: list[_FakeWriter] = []  # writers neither committed nor aborted yet
        self.temp_paths: set[str] = set()
        self.temp_issued: dict[str, float] = {}  # path -> when its folder was made
        self.aborted = 0
        self.sweeps = 0
        self._files = files
        self._clock = clock
        files.mkdir(STORE_ROOT)

    def publish(self, sha256: str, data: bytes) -> None:
        # One blob per content: a second import of the same bytes keeps the first blob and
        # only marks it recent, so a concurrent cleanup leaves it for the row about to refer
        # to it.
        self.blobs.setdefault(sha256, data)
        self.modified[sha256] = self._clock.now().timestamp()

    def begin(self) -> BlobWriter:
        return _FakeWriter(self)

    def open(self, sha256: str) -> BinaryIO:
        return io.BytesIO(self._blob(sha256))

    def size(self, sha256: str) -> int:
        return len(self._blob(sha256))

    def delete(self, sha256: str) -> None:
        self.blobs.pop(sha256, None)
        self.modified.pop(sha256, None)

    def modified_at(self, sha256: str) -> float:
        self._blob(sha256)
        return self.modified[sha256]

    def all_digests(self) -> Iterator[str]:
        return iter(sorted(self.blobs))

    def sweep_staging(self) -> int:
        # No processes in memory: every writer left open is one a dead importer left.
        self.sweeps += 1
        left = len(self.staging)
        self.staging.clear()
        return left

    def temp_output_path(self, token_id: str) -> str:
        path = f"{STORE_ROOT}/temp/{token_id}/output"
        if path in self.temp_paths:
            raise ValueError(f"temporary output {token_id} was already issued")
        self.temp_paths.add(path)
        self.temp_issued[path] = self._clock.now().timestamp()
        return path

    def temp_output_location(self, path: str) -> tuple[str, str]:
        if path not in self.temp_paths:
            raise InvalidInputError(f"{path} is not a temporary output of this store")
        return STORE_ROOT, path.removeprefix(f"{STORE_ROOT}/")

    def discard_temp_output(self, path: str) -> None:
        self.temp_paths.discard(path)
        self._files.remove(path)

    def temp_output_folders(self) -> Iterator[TempOutputFolder]:
        for path in sorted(self.temp_paths):
            selector = path.removeprefix(f"{STORE_ROOT}/temp/").removesuffix("/output")
            yield TempOutputFolder(selector, path, self.temp_issued[path])

    def _blob(self, sha256: str) -> bytes:
        if sha256 not in self.blobs:
            raise BlobMissingError(f"blob {sha256} is missing from the fake store")
        return self.blobs[sha256]


class _FakeScan(SecretScan):
    def __init__(self, honour_allow_markers: bool) -> None:
        self._honour_markers = honour_allow_markers
        self._pending = b""  # the unfinished line, carried over to the next chunk
        self._pending_start = 0  # its offset in the stream
        self._line = 1
        self._matches: list[SecretMatch] = []

    def feed(self, data: bytes) -> None:
        self._pending += data
        *complete, rest = self._pending.split(b"\n")
        for line in complete:
            self._scan_line(line)
            self._pending_start += len(line) + 1
            self._line += 1
        self._pending = rest

    def finish(self) -> list[SecretFinding]:
        return sorted({match.finding for match in self.finish_matches()})

    def finish_matches(self) -> list[SecretMatch]:
        if self._pending:
            self._scan_line(self._pending)
            self._pending_start += len(self._pending)
            self._pending = b""
        return sorted(self._matches, key=lambda match: (match.start, match.end))

    def _scan_line(self, line: bytes) -> None:
        if self._honour_markers and ALLOW_MARKER.encode() in line:
            return
        for found in FAKE_KEY.finditer(line):
            self._matches.append(
                SecretMatch(
                    line=self._line,
                    kind=SecretKind.GENERIC_SECRET,
                    rule=FAKE_RULE,
                    fingerprint=fingerprint(FAKE_RULE, found.group()),
                    start=self._pending_start + found.start(),
                    end=self._pending_start + found.end(),
                )
            )


class FakeSecretScanner(SecretScanner):
    """Finds `FAKE_KEY` (``FAKEKEY-`` and 8 or more letters or digits), with byte spans; a line
    with the allow marker is not reported when the scan honours it. `scans` counts the scans
    started."""

    def __init__(self) -> None:
        self.scans = 0

    @property
    def name(self) -> str:
        return "fake"

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        self.scans += 1
        return _FakeScan(honour_allow_markers)
