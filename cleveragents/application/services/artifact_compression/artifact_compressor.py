"""Artifact-type-tailored compression within an exact token budget: the service, and the
story it tells.

`tiered` mode is three tiers: the artifact whole when it fits (Tier 1); the kind's compressor when
the artifact is at most 1.5 times the budget and the result fits and is valid (Tier 2);
otherwise a head cut with a ``[TRUNCATED: ...]`` marker (Tier 3). Every tier's `content` is
counted with the real tokenizer and fits the budget, and `compacted_tokens` is that count.

`smart` mode fills the budget by value at any ratio: the artifact whole when it fits; else the
type's own fit (JSON, which must still parse), or the artifact's own lines packed by the
type's ranks (structure first, then what matters for the type and the task, then context),
each run of dropped lines replaced by a marker naming its line range (or, for a kind that
allows it at a tight budget, an outline under one marker naming the whole range), so nothing is
lost: when the artifact is in the store, `agents artifact read ID --lines A-B` gives the range
back.

Before anything, credentials in the artifact are redacted (kind named, value never), so a
judge never sees a key. So is every other field printed: the artifact's name (a tool can write
a token into a file name), the notice, an error's message and the error response's content
(they name the path), and the content once more at the end (one scan of what is returned).

The story, in the order it runs, one concern a module: `artifact_reading` opens the artifact
(a file inside the work directory, standard input, or the store's bytes) and refuses a binary
one; `redaction` takes its credentials out; `detection` and `kinds.registry` pick the kind's
compressor (which declares what it can do: `KindCompressor.streams`, `.rewrites_text`);
`raw_counts` counts it; `tiers` runs Tier 1 -> Tier 2 -> Tier 3 (`truncation`), or smart mode
(`smart_mode`, packing lines with `packing`), on the `CompressionRun` of `compression_run`;
`streamed_artifacts` does the same for an artifact too large to hold. This module joins them,
and redacts everything it prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from functools import partial

from cleveragents.application.ports.contained_files import ContainedFiles
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_reading import (
    ReadableArtifact,
    artifact_from_bytes,
    binary_refusal,
    open_artifact,
    refused_as_not_found,
)
from cleveragents.application.services.artifact_compression.collector_pause import (
    collector_paused,
)
from cleveragents.application.services.artifact_compression.compression_run import (
    CompressedBody,
    CompressionRun,
)
from cleveragents.application.services.artifact_compression.detection import detect_as
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.kinds.registry import compressor_for
from cleveragents.application.services.artifact_compression.raw_counts import (
    RawCount,
    as_tokenized,
    count_raw,
    count_streamed,
    heuristic_count,
)
from cleveragents.application.services.artifact_compression.redaction import redact_artifact
from cleveragents.application.services.artifact_compression.streamed_artifacts import (
    compress_streamed,
    fits_held,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.application.services.artifact_compression.tiers import compress_within
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.domain.artifact import (
    DEFAULT_COMPRESSION_MODE,
    ArtifactKind,
    CompressedArtifact,
    CompressionMode,
)
from cleveragents.domain.errors import (
    ArtifactNotFoundError,
    CleverAgentsError,
    InvalidInputError,
    TokenCountingError,
)

LARGE_ARTIFACT_BYTES = 32 << 20
"""Above this size an artifact is streamed: counted in chunks, and only what the output needs
is held (a head for Tier 3; bounded candidate buffers for smart-mode logs)."""
SNIFF_CHARS = 16_384


@dataclass(frozen=True, slots=True)
class CompressionOutcome:
    """The five-field result, and for a missing or binary artifact the error it reports (the
    result then is the error response)."""

    result: CompressedArtifact
    error: str | None = None
    notice: str | None = None  # something the user should know (e.g. the store refused it)
    kind: ArtifactKind | None = None  # what it was compressed as; None for an error response


class ArtifactCompressorService:
    """Compresses one artifact to a token budget for a judge or an agent."""

    def __init__(
        self,
        files: ContainedFiles,
        token_counter: TokenCounter,
        skeletonizer: SourceSkeletonizer,
        scanner: SecretScanner,
        store: Callable[[], ArtifactStore] | None = None,
        large_artifact_bytes: int | None = None,
    ) -> None:
        self._files = files
        self._counter = token_counter
        self._skeletonizer = skeletonizer
        self._scanner = scanner
        self._store = store
        self._large_bytes = large_artifact_bytes or LARGE_ARTIFACT_BYTES

    # -- entry points ----------------------------------------------------------------------------

    def compress(
        self,
        artifact_path: str,
        budget: int,
        *,
        workdir: str,
        task: str | None = None,
        mode: CompressionMode = DEFAULT_COMPRESSION_MODE,
        store: bool = False,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """Compress the file at `artifact_path` (relative to `workdir`, or absolute inside it).

        A missing file, or a path that escapes the work directory, gives the not-found
        response with `error` set; so does a binary file. Invalid UTF-8 is decoded with
        replacement characters (U+FFFD). With `store`, the file is imported into the artifact
        store first and every omission marker names the stored artifact. `kind` overrides
        the kind told from the name and the first lines.
        """
        _check_budget(budget)
        with self._errors_redacted():
            return self._shown(
                self._compress_file(artifact_path, budget, workdir, task, mode, store, kind)
            )

    def _compress_file(
        self,
        artifact_path: str,
        budget: int,
        workdir: str,
        task: str | None,
        mode: CompressionMode,
        store: bool,
        kind: ArtifactKind | None,
    ) -> CompressionOutcome:
        try:
            artifact = open_artifact(self._files, workdir, artifact_path)
            if store:
                with artifact:
                    if artifact.is_binary():
                        return _binary(artifact_path, artifact.location)
                return self._import_and_compress(artifact_path, budget, workdir, task, mode, kind)
        except ArtifactNotFoundError as missing:
            # Also when the file was swapped (for a symlink, a FIFO) or removed between the
            # opens of --store: every refusal gets the one documented answer.
            content = f"[ERROR: artifact not found at {missing.location}]"
            return CompressionOutcome(_error_result(artifact_path, content), str(missing))
        return self._compress_readable(artifact_path, artifact, budget, task, mode, None, kind)

    def compress_input(
        self,
        name: str,
        data: bytes,
        budget: int,
        *,
        task: str | None = None,
        mode: CompressionMode = DEFAULT_COMPRESSION_MODE,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """Compress bytes already read (standard input) by the rules of a file: binary data
        refused, invalid UTF-8 as U+FFFD, large input streamed."""
        _check_budget(budget)
        artifact = artifact_from_bytes(data)
        with self._errors_redacted():
            return self._shown(
                self._compress_readable(name, artifact, budget, task, mode, None, kind)
            )

    def compress_stored(
        self,
        artifact_id: str,
        budget: int,
        *,
        task: str | None = None,
        mode: CompressionMode = DEFAULT_COMPRESSION_MODE,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """Compress an artifact already in the store; its markers name it."""
        _check_budget(budget)
        with self._errors_redacted():
            # An id holding a credential is no id: looked up redacted, it is not found, and
            # the message that says so does not show it.
            artifact_id = self.redacted(artifact_id)
            return self._shown(self._compress_stored(artifact_id, None, budget, task, mode, kind))

    def redacted(self, text: str) -> str:
        """`text` as compression prints it: with every credential in it redacted whole (an
        artifact's name, a path in a message)."""
        return redact_artifact(text, self._scanner)

    def _shown(self, outcome: CompressionOutcome) -> CompressionOutcome:
        """`outcome` with every field it prints redacted: the name, the notice, the error,
        and an error response's content (which names the path)."""
        result = outcome.result
        update = {"artifact_name": self.redacted(result.artifact_name)}
        if outcome.error is not None:
            update["content"] = self.redacted(result.content)
        return replace(
            outcome,
            result=result.model_copy(update=update),
            error=None if outcome.error is None else self.redacted(outcome.error),
            notice=None if outcome.notice is None else self.redacted(outcome.notice),
        )

    @contextmanager
    def _errors_redacted(self) -> Iterator[None]:
        """An expected error's message redacted: it may echo a path or an id the user gave."""
        try:
            yield
        except CleverAgentsError as error:
            error.args = tuple(
                self.redacted(part) if isinstance(part, str) else part for part in error.args
            )
            raise

    def _compress_stored(
        self,
        artifact_id: str,
        name: str | None,
        budget: int,
        task: str | None,
        mode: CompressionMode,
        kind: ArtifactKind | None,
    ) -> CompressionOutcome:
        store = self._require_store()
        stored = store.get(artifact_id)
        data = store.read(stored.id, 0, stored.byte_count)
        artifact = artifact_from_bytes(data, f"artifact {stored.id}")
        name = name or stored.workspace_path or stored.id
        return self._compress_readable(name, artifact, budget, task, mode, Handles(stored.id), kind)

    def _import_and_compress(
        self,
        artifact_path: str,
        budget: int,
        workdir: str,
        task: str | None,
        mode: CompressionMode,
        kind: ArtifactKind | None,
    ) -> CompressionOutcome:
        """The file imported into the store, then compressed from there (so the markers' line
        ranges are those of the stored bytes). A file the store refuses (it holds a
        credential) is compressed from the file, without handles, with a notice saying why."""
        with refused_as_not_found(self._files.real_root(workdir), artifact_path):
            imported = self._require_store().import_file(workdir, artifact_path)
        if not imported.blocked:
            return self._compress_stored(
                imported.artifact.id, artifact_path, budget, task, mode, kind
            )
        artifact = open_artifact(self._files, workdir, artifact_path)
        outcome = self._compress_readable(artifact_path, artifact, budget, task, mode, None, kind)
        return replace(outcome, notice=f"not stored: {imported.notice}")

    def _compress_readable(
        self,
        name: str,
        artifact: ReadableArtifact,
        budget: int,
        task: str | None,
        mode: CompressionMode,
        handles: Handles | None,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """One open artifact, closed after: refused when binary, streamed when large, else
        read whole and compressed."""
        with artifact:
            if artifact.is_binary():
                return _binary(name, artifact.location)
            if artifact.size_bytes > self._large_bytes:
                with collector_paused():
                    return self._compress_large(name, artifact, budget, task, mode, handles, kind)
            text = artifact.read_text()
        return self.compress_text_outcome(
            name, text, budget, task=task, mode=mode, handles=handles, kind=kind
        )

    def compress_text(
        self,
        name: str,
        text: str,
        budget: int,
        *,
        task: str | None = None,
        mode: CompressionMode = DEFAULT_COMPRESSION_MODE,
        handles: Handles | None = None,
        kind: ArtifactKind | None = None,
    ) -> CompressedArtifact:
        """Compress `text`, whose file name `name` helps detect its kind (unless `kind` says
        it)."""
        return self.compress_text_outcome(
            name, text, budget, task=task, mode=mode, handles=handles, kind=kind
        ).result

    def compress_text_outcome(
        self,
        name: str,
        text: str,
        budget: int,
        *,
        task: str | None = None,
        mode: CompressionMode = DEFAULT_COMPRESSION_MODE,
        handles: Handles | None = None,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """`compress_text`, with the kind it was compressed as."""
        _check_budget(budget)
        with self._errors_redacted(), collector_paused():
            return self._compress_text(name, text, budget, task, mode, handles, kind)

    def _compress_text(
        self,
        name: str,
        text: str,
        budget: int,
        task: str | None,
        mode: CompressionMode,
        handles: Handles | None,
        kind: ArtifactKind | None,
    ) -> CompressionOutcome:
        text = redact_artifact(as_tokenized(text), self._scanner)
        detected = detect_as(name, text[:SNIFF_CHARS], kind)
        compressor = compressor_for(detected, self._skeletonizer)
        # One encode gives the count and where the tokens start, which every tier after the
        # first uses (line costs, the cut, counting what they copy). A text with no more
        # characters than the budget has tokens nearly always fits whole: only the count (a
        # tier that then needs the starts encodes for them). Nor does a kind whose smart mode
        # is its own fit, which counts what it renders.
        fitted = mode is CompressionMode.SMART and compressor.fits_itself
        # Such a kind renders candidates from the text and counts them, and samples of them:
        # those counts share most of their words with the raw count's, so the counter may
        # remember them until the compression ends.
        with self._counter.remembering() if fitted else nullcontext():
            counted = count_raw(self._counter, text, with_starts=len(text) > budget and not fitted)
            run = CompressionRun(
                text,
                compressor,
                TaskTerms.from_task(task),
                handles or Handles(),
                mode is CompressionMode.SMART,
                partial(redact_artifact, scanner=self._scanner),
            )
            try:
                body = compress_within(run, budget, counted)
                return CompressionOutcome(self._finished(name, counted, body), kind=detected.kind)
            except TokenCountingError:
                if counted.by_heuristic:
                    raise  # the heuristic never fails: a bug, let it show
        # The tokenizer counted the raw text but failed on a later one: the fallback applies to
        # the whole compression, as if the raw count had failed.
        fallback = heuristic_count(text)
        body = compress_within(run, budget, fallback)
        return CompressionOutcome(self._finished(name, fallback, body), kind=detected.kind)

    def _finished(self, name: str, counted: RawCount, body: CompressedBody) -> CompressedArtifact:
        """The five fields, the name redacted and the content scanned once more: what was
        redacted before it was cut or packed has nothing left to find, but whatever a tier
        may have joined into a credential is redacted too (and then counted again). Content
        the scanner already found clean as it is (a rewritten document, scanned as written)
        is not scanned twice: the same scan of the same text finds the same nothing."""
        shown = body.content if body.scanned else self.redacted(body.content)
        return CompressedArtifact(
            artifact_name=self.redacted(name),
            raw_tokens=counted.tokens,
            compacted_tokens=(
                body.tokens if shown == body.content else counted.counter.count(shown)
            ),
            truncated=body.truncated,
            content=shown,
        )

    # -- large files and the store ---------------------------------------------------------------

    def _compress_large(
        self,
        name: str,
        artifact: ReadableArtifact,
        budget: int,
        task: str | None,
        mode: CompressionMode,
        handles: Handles | None,
        kind: ArtifactKind | None,
    ) -> CompressionOutcome:
        """A file too large to hold: counted in chunks; read whole only when the output may be
        the whole artifact or its Tier 2 (`streamed_artifacts` holds no more than it needs)."""
        counted = count_streamed(self._counter, artifact.iter_text)
        if fits_held(counted, budget):
            text = artifact.read_text()
            return self.compress_text_outcome(
                name, text, budget, task=task, mode=mode, handles=handles, kind=kind
            )
        detected = detect_as(name, artifact.head(SNIFF_CHARS), kind)
        body = compress_streamed(
            artifact,
            compressor_for(detected, self._skeletonizer),
            TaskTerms.from_task(task),
            budget,
            counted,
            smart=mode is CompressionMode.SMART,
            handles=handles,
            redact=self.redacted,
        )
        return CompressionOutcome(self._finished(name, counted, body), kind=detected.kind)

    def _require_store(self) -> ArtifactStore:
        if self._store is None:
            raise InvalidInputError("no artifact store is configured")
        return self._store()


def _check_budget(budget: int) -> None:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise InvalidInputError(f"the token budget must be a whole number >= 1, got {budget!r}")


def _error_result(name: str, content: str) -> CompressedArtifact:
    return CompressedArtifact(
        artifact_name=name, raw_tokens=0, compacted_tokens=0, truncated=True, content=content
    )


def _binary(name: str, location: str) -> CompressionOutcome:
    refusal, message = binary_refusal(name, location)
    return CompressionOutcome(refusal, message)
