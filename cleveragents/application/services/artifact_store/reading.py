"""Reading the artifact store back: artifacts by id or by content, previews, bytes and lines.

Only a stored artifact has bytes to give; a blocked or expired one answers with
`ArtifactNotStoredError`, its audit row still there for `get` and `list`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from cleveragents.application.ports.blob_storage import BlobStorage
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.unit_of_work import UnitOfWorkFactory
from cleveragents.application.services.artifact_store.lines import located_lines_between
from cleveragents.application.services.artifact_store.results import ArtifactNotStoredError
from cleveragents.application.services.governance.previews import build_preview
from cleveragents.domain.classification import DataClass, Destination, require_allowed
from cleveragents.domain.errors import InvalidInputError, NotFoundError, ProjectNotFoundError
from cleveragents.domain.ids import parse_ulid
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.stored_artifact import ArtifactPreview, ArtifactStatus, StoredArtifact

# How much of a blob (or of an imported output) is held at once.
CHUNK_BYTES = 1 << 20
SHA256_REFERENCE = "sha256:"


@dataclass(frozen=True)
class ArtifactSlice:
    """One bounded read of a stored artifact: the bytes, where they sit in it and what is
    left after them, so that a driver can say what it did not return and how to get it."""

    artifact_id: str
    data: bytes
    offset: int
    """Where `data` starts in the artifact (for a line range past the end: the end)."""
    total_bytes: int
    """The artifact's whole size."""
    truncated: bool
    """True when the bound cut what was asked for: the rest starts at `next_offset`."""

    @property
    def returned(self) -> int:
        """How many bytes `data` holds."""
        return len(self.data)

    @property
    def remaining(self) -> int:
        """How many bytes of the artifact come after `data`."""
        return max(self.total_bytes - self.offset - self.returned, 0)

    @property
    def next_offset(self) -> int | None:
        """Where the next read starts (the byte after `data`), or None at the end."""
        return self.offset + self.returned if self.remaining else None


class ArtifactReader:
    """The reading half of `ArtifactStore`: what it exposes is documented there."""

    def __init__(
        self, uow_factory: UnitOfWorkFactory, blobs: BlobStorage, scanner: SecretScanner
    ) -> None:
        self._uow_factory = uow_factory
        self._blobs = blobs
        self._scanner = scanner

    def get(self, artifact_id: str) -> StoredArtifact:
        if artifact_id.startswith(SHA256_REFERENCE):
            return self._by_content(artifact_id.removeprefix(SHA256_REFERENCE))
        canonical = parse_ulid(artifact_id, "artifact id")
        with self._uow_factory() as uow:
            artifact = uow.artifacts.get(canonical)
        if artifact is None:
            raise NotFoundError(f"unknown artifact {canonical}; `agents artifact list` shows them")
        return artifact

    def _by_content(self, digest: str) -> StoredArtifact:
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise InvalidInputError(
                f"{SHA256_REFERENCE}{digest} is not a SHA-256 reference (64 lowercase hex digits)"
            )
        with self._uow_factory() as uow:
            artifact = uow.artifacts.find_stored(digest)
        if artifact is None:
            raise NotFoundError(f"no stored artifact has SHA-256 {digest}")
        return artifact

    def list(
        self, project: str | None = None, status: ArtifactStatus | None = None
    ) -> list[StoredArtifact]:
        with self._uow_factory() as uow:
            project_id = None
            if project is not None:
                found = uow.projects.get_by_name(project)
                if found is None:
                    raise ProjectNotFoundError(project)
                project_id = found.id
            return uow.artifacts.list(project_id, status)

    def preview(self, artifact_id: str) -> ArtifactPreview:
        artifact = self._stored(artifact_id)
        assert artifact.sha256 is not None
        with self._uow_factory() as uow:
            project = uow.projects.get(artifact.project_id)
            plan = uow.plans.get(artifact.plan_id) if artifact.plan_id else None
        policy = project.policy if project is not None else ContextPolicy()
        if plan is not None:
            policy = policy.overridden_by(plan.policy)
        head_limit = policy.effective_preview_head_bytes
        tail_limit = policy.effective_preview_tail_bytes
        with self._blobs.open(artifact.sha256) as handle:
            head = handle.read(head_limit)
            if artifact.byte_count > head_limit:
                handle.seek(max(artifact.byte_count - tail_limit, head_limit))
                tail = handle.read(tail_limit)
            else:
                tail = b""
        return self.preview_of(artifact, head, tail)

    def preview_of(self, artifact: StoredArtifact, head: bytes, tail: bytes) -> ArtifactPreview:
        """The preview of `artifact` from its first bytes `head` and its last bytes `tail`
        (an import passes what it kept of the stream, `preview` what it read back)."""
        require_allowed(DataClass.TOOL_PREVIEW, Destination.MODEL_PREVIEW)
        assert artifact.sha256 is not None
        text = build_preview(head, tail, artifact.byte_count, self._scanner)
        return ArtifactPreview(
            artifact_id=artifact.id,
            workspace_path=artifact.workspace_path,
            media_type=artifact.media_type,
            byte_count=artifact.byte_count,
            sha256=artifact.sha256,
            head=text.head,
            tail=text.tail,
            omitted_bytes=text.omitted_bytes,
            withheld_lines=text.withheld_lines,
            omitted_offset=text.omitted_offset,
        )

    def read(self, artifact_id: str, offset: int = 0, length: int | None = None) -> bytes:
        return b"".join(self.stream(artifact_id, offset, length))

    def stream(
        self, artifact_id: str, offset: int = 0, length: int | None = None
    ) -> Iterator[bytes]:
        # Checked now, not when the first piece is asked for (as `stream_lines`).
        _check_byte_range(offset, length)
        artifact = self._stored(artifact_id)
        assert artifact.sha256 is not None
        return self._blob_bytes(artifact.sha256, offset, length)

    def read_slice(
        self, artifact_id: str, offset: int = 0, length: int | None = None, *, limit: int
    ) -> ArtifactSlice:
        _check_byte_range(offset, length)
        _check_limit(limit)
        artifact = self._stored(artifact_id)
        assert artifact.sha256 is not None
        wanted = limit if length is None else min(length, limit)
        data = b"".join(self._blob_bytes(artifact.sha256, offset, wanted))
        asked_end = artifact.byte_count if length is None else offset + length
        end = offset + len(data)
        return ArtifactSlice(
            artifact_id=artifact.id,
            data=data,
            offset=offset,
            total_bytes=artifact.byte_count,
            truncated=end < min(asked_end, artifact.byte_count),
        )

    def read_lines(self, artifact_id: str, first: int, last: int | None = None) -> bytes:
        return b"".join(self.stream_lines(artifact_id, first, last))

    def stream_lines(
        self, artifact_id: str, first: int, last: int | None = None
    ) -> Iterator[bytes]:
        # Checked now, not when the first piece is asked for: the caller learns of a bad range
        # or a missing artifact before it starts writing anything.
        _check_line_range(first, last)
        artifact = self._stored(artifact_id)
        assert artifact.sha256 is not None
        return (piece for _, piece in self._blob_lines(artifact.sha256, first, last))

    def read_lines_slice(
        self, artifact_id: str, first: int, last: int | None = None, *, limit: int
    ) -> ArtifactSlice:
        _check_line_range(first, last)
        _check_limit(limit)
        artifact = self._stored(artifact_id)
        assert artifact.sha256 is not None
        kept = bytearray()
        start: int | None = None
        truncated = False
        for at, piece in self._blob_lines(artifact.sha256, first, last):
            if start is None:
                start = at
            room = limit - len(kept)
            kept += piece[:room]
            if len(piece) > room:
                truncated = True
                break
        return ArtifactSlice(
            artifact_id=artifact.id,
            data=bytes(kept),
            # No line of the range exists: the range starts at the artifact's end.
            offset=artifact.byte_count if start is None else start,
            total_bytes=artifact.byte_count,
            truncated=truncated,
        )

    def _blob_bytes(self, sha256: str, offset: int, length: int | None) -> Iterator[bytes]:
        left = length
        with self._blobs.open(sha256) as handle:
            handle.seek(offset)
            while left is None or left > 0:
                piece = handle.read(CHUNK_BYTES if left is None else min(left, CHUNK_BYTES))
                if not piece:
                    return
                if left is not None:
                    left -= len(piece)
                yield piece

    def _blob_lines(self, sha256: str, first: int, last: int | None) -> Iterator[tuple[int, bytes]]:
        with self._blobs.open(sha256) as handle:
            yield from located_lines_between(
                iter(lambda: handle.read(CHUNK_BYTES), b""), first, last
            )

    def _stored(self, artifact_id: str) -> StoredArtifact:
        artifact = self.get(artifact_id)
        if artifact.status is not ArtifactStatus.STORED:
            raise ArtifactNotStoredError(
                f"artifact {artifact.id} is {artifact.status.value}: only its audit row remains"
            )
        return artifact


def _check_byte_range(offset: int, length: int | None) -> None:
    if offset < 0 or (length is not None and length < 0):
        raise InvalidInputError("offset and length must be >= 0")


def _check_line_range(first: int, last: int | None) -> None:
    if (
        isinstance(first, bool)
        or isinstance(last, bool)
        or first < 1
        or (last is not None and last < first)
    ):
        shown = f"{first}-" if last is None else f"{first}-{last}"
        raise InvalidInputError(f"a line range is FIRST-LAST with 1 <= FIRST <= LAST, got {shown}")


def _check_limit(limit: int) -> None:
    if isinstance(limit, bool) or limit < 1:
        raise InvalidInputError(f"a read's bound must be >= 1 byte, got {limit}")
