"""`compress`: text or a file, to an exact token budget, for a judge or an agent."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cleveragents.api.formats import (
    ArtifactKindName,
    CompressionModeName,
    artifact_kind,
    compression_mode,
)
from cleveragents.domain.compression_modes import DEFAULT_COMPRESSION_MODE
from cleveragents.domain.errors import InvalidInputError, NotFoundError

if TYPE_CHECKING:
    from cleveragents.api.store import Store
    from cleveragents.application.services.artifact_compression.artifact_compressor import (
        CompressionOutcome,
    )
    from cleveragents.domain.artifact import ArtifactKind, CompressedArtifact
    from cleveragents.domain.compression_modes import CompressionMode

_TEXT_NAME = "text"
"""The name text is compressed under when none is given."""
SNIFF_BYTES = 1 << 16
"""Of a stored artifact, what is read to tell its kind (more than the compressor sniffs)."""


@dataclass(frozen=True, slots=True)
class CompressResult:
    """A compressed artifact: `text` fits `budget` by the real tokenizer (`tokens` is its
    count), whatever the tier."""

    text: str
    tokens: int
    raw_tokens: int
    """The whole artifact's tokens."""
    budget: int
    kind: ArtifactKind
    mode: CompressionMode
    name: str
    truncated: bool
    """Something was left out: with `smart`, each run of omitted lines is a marker naming its
    line range (for a stored artifact, `Store.read_lines` gives it back exactly)."""
    notice: str | None = None
    """What the caller should know, e.g. that the store refused the file (a credential)."""

    @property
    def artifact(self) -> CompressedArtifact:
        """The five-field result of ``agents artifact compress`` (artifact_name, raw_tokens,
        compacted_tokens, truncated, content)."""
        from cleveragents.domain.artifact import CompressedArtifact

        return CompressedArtifact(
            artifact_name=self.name,
            raw_tokens=self.raw_tokens,
            compacted_tokens=self.tokens,
            truncated=self.truncated,
            content=self.text,
        )


def compress(
    text_or_path: str | os.PathLike[str],
    budget: int,
    *,
    kind: ArtifactKind | ArtifactKindName | None = None,
    mode: CompressionMode | CompressionModeName = DEFAULT_COMPRESSION_MODE,
    task: str | None = None,
    name: str | None = None,
    workdir: str | os.PathLike[str] | None = None,
    store: Store | None = None,
    encoding: str | None = None,
) -> CompressResult:
    """Compress an artifact to at most `budget` tokens (counted with the real tokenizer).

    A `str` is the artifact's text; an `os.PathLike` (a `pathlib.Path`) is a file, read
    race-free beneath `workdir` (default: the file's own directory; a path that leaves it, a
    symlink, a hard link or a device is refused), streamed when large, refused when binary.

    `kind` (``diff``, ``json``, ``log``, ``markdown``, ``source``, ``text``) is told from
    `name` (default: the file's name) and the first lines when None; given, it decides
    (``source`` needs a `name` with the language's extension, e.g. ``app.py``). `mode`
    ``smart`` (the default) fills the budget by value and marks every omission with its line
    range; ``tiered`` is the three tiers (whole, the kind's compressor, a head cut). `task` ranks
    the lines that name its words first. Credentials are redacted in what is returned.

    With `store`, a file is imported into it first, so each omission marker names the stored
    artifact (`Store.compress` compresses one already stored). Raises `InvalidInputError` for a
    budget under 1, a binary file or ``source`` without a language, `NotFoundError` for a
    missing file.
    """
    from cleveragents.api.engines import storeless_container
    from cleveragents.application.services.artifact_compression.artifact_compressor import (
        SNIFF_CHARS,
    )
    from cleveragents.application.services.artifact_compression.detection import detect_as

    chosen_mode = compression_mode(mode)
    wanted = artifact_kind(kind)
    if store is not None:
        container = store.container_for(encoding)
    else:
        container = storeless_container(encoding or "cl100k_base")
    service = container.artifact_compressor_service()
    if isinstance(text_or_path, str):
        # Redacted first: a name is printed (and echoed by errors); its suffix stays.
        label = service.redacted(name or _TEXT_NAME)
        detected = detect_as(label, text_or_path[:SNIFF_CHARS], wanted).kind
        compressed = service.compress_text(
            label, text_or_path, budget, task=task, mode=chosen_mode, kind=detected
        )
        return _result(compressed, budget, detected, chosen_mode, None)
    if not isinstance(text_or_path, os.PathLike):
        raise InvalidInputError(
            f"compress takes text (a str) or a file (an os.PathLike), not "
            f"{type(text_or_path).__name__}"
        )
    path = Path(os.fspath(text_or_path)).absolute()
    directory = Path(os.fspath(workdir)).absolute() if workdir is not None else path.parent
    detected = detect_as(service.redacted(name or path.name), _head(path), wanted).kind
    outcome = service.compress(
        str(path),
        budget,
        workdir=str(directory),
        task=task,
        mode=chosen_mode,
        store=store is not None,
        kind=detected,
    )
    _raise_for_error(outcome, path)
    return _result(outcome.result, budget, detected, chosen_mode, outcome.notice)


def stored_result(
    outcome: CompressionOutcome, budget: int, mode: CompressionMode, kind: ArtifactKind
) -> CompressResult:
    """The result of compressing a stored artifact as `kind`."""
    if outcome.error is not None:
        raise InvalidInputError(outcome.error)
    return _result(outcome.result, budget, kind, mode, outcome.notice)


def _head(path: Path) -> str:
    """The first characters of a file, to detect its kind by (nothing when unreadable: the
    compression then says what is wrong)."""
    from cleveragents.application.services.artifact_compression.artifact_compressor import (
        SNIFF_CHARS,
    )

    # Opened without blocking (a FIFO swapped in for the file would hang a plain open), and
    # sniffed only when what was opened is a regular file.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        try:
            head = handle.read(SNIFF_CHARS * 4)  # at most 4 UTF-8 bytes a character
        except OSError:
            return ""
    return head.decode("utf-8", errors="replace")[:SNIFF_CHARS]


def _raise_for_error(outcome: CompressionOutcome, path: Path) -> None:
    if outcome.error is None:
        return
    if not path.is_file():
        raise NotFoundError(outcome.error)
    raise InvalidInputError(outcome.error)


def _result(
    compressed: CompressedArtifact,
    budget: int,
    kind: ArtifactKind,
    mode: CompressionMode,
    notice: str | None,
) -> CompressResult:
    return CompressResult(
        text=compressed.content,
        tokens=compressed.compacted_tokens,
        raw_tokens=compressed.raw_tokens,
        budget=budget,
        kind=kind,
        mode=mode,
        name=compressed.artifact_name,
        truncated=compressed.truncated,
        notice=notice,
    )
