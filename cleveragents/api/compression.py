"""`compress`: text or a file, to an exact token budget, for a judge or an agent."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from cleveragents.api.engines import storeless_container
from cleveragents.api.formats import (
    ArtifactKindName,
    CompressionModeName,
    artifact_kind,
    compression_mode,
)
from cleveragents.container.models import build_model_profiles
from cleveragents.domain.artifact import CompressedArtifact
from cleveragents.domain.compression_modes import DEFAULT_COMPRESSION_MODE
from cleveragents.domain.errors import InvalidInputError, NotFoundError
from cleveragents.domain.models import within_margin
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.api.store import Store
    from cleveragents.application.services.artifact_compression.artifact_compressor import (
        CompressionOutcome,
    )
    from cleveragents.domain.artifact import ArtifactKind, CompressedArtifact
    from cleveragents.domain.compression_modes import CompressionMode
    from cleveragents.domain.models import ModelProfile

_TEXT_NAME = "text"
"""The name text is compressed under when none is given."""


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
    line range (for a stored artifact, `Store.read_lines` gives it back exactly); a source
    file at a tight budget is an outline, its one marker naming the whole file's range."""
    notice: str | None = None
    """What the caller should know, e.g. that the store refused the file (a credential)."""
    estimated: bool = False
    """True when the token figures are estimates for the model named (Claude: no public
    tokenizer); they are exact counts in the encoding all the same."""
    count_method: str | None = None
    """How the figures relate to the model named (``cl100k_base estimate``), when one was."""

    @property
    def artifact(self) -> CompressedArtifact:
        """The five-field result of ``agents artifact compress`` (artifact_name, raw_tokens,
        compacted_tokens, truncated, content)."""
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
    workspace: str | os.PathLike[str] | None = None,
    workdir: str | os.PathLike[str] | None = None,
    store: Store | None = None,
    encoding: str | None = None,
    model: str | None = None,
) -> CompressResult:
    """Compress an artifact to at most `budget` tokens (counted with the real tokenizer).

    A `str` is the artifact's text; an `os.PathLike` (a `pathlib.Path`) is a file, read
    race-free beneath `workspace` (default: the file's own directory; a path that leaves it, a
    symlink, a hard link or a device is refused), streamed when large, refused when binary.
    `workdir` is the same argument under its former name.

    `kind` (``diff``, ``json``, ``log``, ``markdown``, ``source``, ``text``) is told from the
    name (text's `name`; a file's own) and the first lines when None; given, it decides
    (``source`` needs a name with the language's extension, e.g. ``app.py``); the result says
    which kind it was compressed as. `mode`
    ``smart`` (the default) fills the budget by value and marks every omission with its line
    range; ``tiered`` is the three tiers (whole, the kind's compressor, a head cut). `task` ranks
    the lines that name its words first. Credentials are redacted in what is returned.

    With `store`, a file is imported into it first, so each omission marker names the stored
    artifact (`Store.compress` compresses one already stored). Raises `InvalidInputError` for a
    budget under 1, a binary file or ``source`` without a language, `NotFoundError` for a
    missing file.

    `model` (``"gpt-4o"``, ``"claude-sonnet-4-5"``; ``agents models`` lists them) counts with
    the model's encoding (`encoding`, given, wins). Claude models have no public tokenizer:
    the budget is divided by their documented safety margin (docs/models.md), so the text fits
    the model's own count, and the result says its figures are estimates (`estimated`,
    `count_method`). An unknown model raises `UnknownModelError`.
    """
    profile = _model_profile(model)
    if profile is not None:
        encoding = encoding or profile.encoding.value
        budget = within_margin(budget, profile.margin)
    chosen_mode = compression_mode(mode)
    wanted = artifact_kind(kind)
    if store is not None:
        container = store.container_for(encoding)
    else:
        container = storeless_container(encoding or DEFAULT_ENCODING)
    service = container.artifact_compressor_service()
    if isinstance(text_or_path, str):
        # Redacted first: a name is printed (and echoed by errors); its suffix stays.
        label = service.redacted(name or _TEXT_NAME)
        told: CompressionOutcome = service.compress_text_outcome(
            label, text_or_path, budget, task=task, mode=chosen_mode, kind=wanted
        )
        return _labelled(_result(told, budget, chosen_mode), profile)
    if not isinstance(text_or_path, os.PathLike):
        raise InvalidInputError(
            f"compress takes text (a str) or a file (an os.PathLike), not "
            f"{type(text_or_path).__name__}"
        )
    path = Path(os.fspath(text_or_path)).absolute()
    root = workspace if workspace is not None else workdir
    directory = Path(os.fspath(root)).absolute() if root is not None else path.parent
    outcome: CompressionOutcome = service.compress(
        str(path),
        budget,
        workdir=str(directory),
        task=task,
        mode=chosen_mode,
        store=store is not None,
        kind=wanted,
    )
    _raise_for_error(outcome, path)
    return _labelled(_result(outcome, budget, chosen_mode), profile)


def _model_profile(model: str | None) -> ModelProfile | None:
    if model is None:
        return None
    return build_model_profiles().profile(model)


def _labelled(result: CompressResult, profile: ModelProfile | None) -> CompressResult:
    """The result, saying how its figures relate to the model named (if one was)."""
    if profile is None:
        return result
    return replace(result, estimated=not profile.exact, count_method=profile.count_method)


def stored_result(
    outcome: CompressionOutcome, budget: int, mode: CompressionMode
) -> CompressResult:
    """The result of compressing a stored artifact."""
    if outcome.error is not None:
        raise InvalidInputError(outcome.error)
    return _result(outcome, budget, mode)


def _raise_for_error(outcome: CompressionOutcome, path: Path) -> None:
    if outcome.error is None:
        return
    if not path.is_file():
        raise NotFoundError(outcome.error)
    raise InvalidInputError(outcome.error)


def _result(outcome: CompressionOutcome, budget: int, mode: CompressionMode) -> CompressResult:
    """The service's outcome as the API shows it: the five fields, the kind the service
    compressed it as, and its notice."""
    compressed = outcome.result
    if outcome.kind is None:  # an error response has no kind; the error was raised first
        raise InvalidInputError(outcome.error or "nothing was compressed")
    return CompressResult(
        text=compressed.content,
        tokens=compressed.compacted_tokens,
        raw_tokens=compressed.raw_tokens,
        budget=budget,
        kind=outcome.kind,
        mode=mode,
        name=compressed.artifact_name,
        truncated=compressed.truncated,
        notice=outcome.notice,
    )
