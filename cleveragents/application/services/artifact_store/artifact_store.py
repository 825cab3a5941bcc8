"""The governed artifact store: data classification, governed large output.

Complete tool output goes here instead of into the prompt. An import is one streaming pass in
bounded chunks: the bytes go to a staging file while they are hashed (SHA-256) and scanned for
credentials; a clean import is fsynced and renamed into content-addressed storage, then its row
is committed; an import with a suspected credential deletes its staging data and leaves only a
blocked row (kinds and line numbers). The model gets a bounded preview: head and tail, byte
count, hash, media type, workspace-relative path and an id to fetch more.

This module is the service's one entry point; each concern lives beside it: `importing` (the
pipeline), `reading` (lookups, previews, bytes and lines), `temp_outputs` (trusted tools'
files), `retention` (cleanup) and `results` (what the store answers, its errors).
"""

from __future__ import annotations

from collections.abc import Iterator

from cleveragents.application.ports.blob_storage import BlobStorage
from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.contained_files import ContainedFiles
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.unit_of_work import UnitOfWorkFactory
from cleveragents.application.services.artifact_store.importing import (
    ArtifactImporter,
    Progress,
)
from cleveragents.application.services.artifact_store.reading import (
    ArtifactReader,
    ArtifactSlice,
)
from cleveragents.application.services.artifact_store.results import (
    ArtifactNotStoredError,
    CleanupReport,
    ImportResult,
    ReferenceRefusedError,
    SecretHandling,
)
from cleveragents.application.services.artifact_store.retention import BLOB_GRACE, Retention
from cleveragents.application.services.artifact_store.temp_outputs import TempOutputs
from cleveragents.domain.stored_artifact import (
    ArtifactPreview,
    ArtifactStatus,
    RetentionClass,
    StoredArtifact,
    TempOutputGrant,
)

# What callers of the store name besides the store: its answers and its errors.
__all__ = [
    "ArtifactNotStoredError",
    "ArtifactStore",
    "CleanupReport",
    "ImportResult",
    "ReferenceRefusedError",
    "SecretHandling",
]


class ArtifactStore:
    """Imports, previews, retention. Container name: ``artifact_store``."""

    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        blobs: BlobStorage,
        files: ContainedFiles,
        scanner: SecretScanner,
        clock: Clock,
        user: str,
        blob_grace_seconds: float = BLOB_GRACE,
    ) -> None:
        self._reader = ArtifactReader(uow_factory, blobs, scanner)
        self._importer = ArtifactImporter(
            uow_factory, blobs, files, scanner, clock, user, self._reader
        )
        self._temp_outputs = TempOutputs(uow_factory, blobs, files, clock, self._importer)
        self._retention = Retention(uow_factory, blobs, clock, self._reader, blob_grace_seconds)
        blobs.sweep_staging()  # what importers that died left behind

    # -- imports -------------------------------------------------------------------------------

    def import_file(
        self,
        workspace: str,
        path: str,
        *,
        project: str | None = None,
        plan_id: str | None = None,
        progress: Progress | None = None,
        secrets: SecretHandling = SecretHandling.BLOCK,
        allowlist: str | None = None,
    ) -> ImportResult:
        """Import a file inside `workspace`, opened race-free beneath it. Credentials found in
        it, or in its name, block it or are redacted (`secrets`), unless the allowlist allows
        them: the file `allowlist` names, else the workspace's `.cleveragents/secrets-allow.toml`
        if there is one."""
        return self._importer.import_file(
            workspace,
            path,
            project=project,
            plan_id=plan_id,
            progress=progress,
            secrets=secrets,
            allowlist=allowlist,
        )

    def import_output(
        self,
        data: bytes,
        label: str,
        *,
        project: str | None = None,
        secrets: SecretHandling = SecretHandling.BLOCK,
        allowlist: str | None = None,
        plan_id: str | None = None,
    ) -> ImportResult:
        """Import output held in memory (a tool result a compaction shrank, one an agent
        hands over, standard input), under ``tool-output/<label>``, for `plan_id` if given:
        hashed, scanned and previewed like a file; `secrets` and `allowlist` as for
        `import_file` (only the allowlist named applies). The same bytes imported again for
        the same project and plan reuse the stored artifact (a compaction run twice stores
        its outputs once)."""
        return self._importer.import_output(
            data, label, project=project, secrets=secrets, allowlist=allowlist, plan_id=plan_id
        )

    def create_temp_output(self, tool_name: str) -> TempOutputGrant:
        """A file a trusted tool writes its output into, and the single-use reference that
        imports it: ``tmpref_<selector>.<verifier>``. The selector finds the record; the
        verifier (256 random bits) is compared in constant time with the SHA-256 kept of it."""
        return self._temp_outputs.create(tool_name)

    def import_temp_output(
        self,
        reference: str,
        *,
        project: str | None = None,
        plan_id: str | None = None,
        progress: Progress | None = None,
        secrets: SecretHandling = SecretHandling.BLOCK,
        allowlist: str | None = None,
    ) -> ImportResult:
        """Import what a trusted tool wrote. Only references this store issued are accepted,
        each once, before they expire. `secrets` and `allowlist` as for `import_file` (there
        is no workspace: only the allowlist named applies)."""
        return self._temp_outputs.import_reference(
            reference,
            project=project,
            plan_id=plan_id,
            progress=progress,
            secrets=secrets,
            allowlist=allowlist,
        )

    # -- reading ---------------------------------------------------------------------------------

    def get(self, artifact_id: str) -> StoredArtifact:
        """The artifact with this id, or ``sha256:<hex>``: the oldest stored one with that
        content (how a compaction's marker names a shrunk tool output, the same every run)."""
        return self._reader.get(artifact_id)

    def list(
        self, project: str | None = None, status: ArtifactStatus | None = None
    ) -> list[StoredArtifact]:
        """Artifacts of any status, oldest first: all of them, or one project's."""
        return self._reader.list(project, status)

    def preview(self, artifact_id: str) -> ArtifactPreview:
        """The bounded preview of a stored artifact, sized by its project's (and plan's)
        current policy; `ArtifactNotStoredError` for a blocked or expired one."""
        return self._reader.preview(artifact_id)

    def read(self, artifact_id: str, offset: int = 0, length: int | None = None) -> bytes:
        """`length` bytes of a stored artifact from `offset` (None: to its end), held whole:
        `stream` for more than memory should hold, `read_slice` for a bounded read."""
        return self._reader.read(artifact_id, offset, length)

    def stream(
        self, artifact_id: str, offset: int = 0, length: int | None = None
    ) -> Iterator[bytes]:
        """`read` in pieces of at most `CHUNK_BYTES`; the artifact and the range are checked
        now, before the first piece is asked for."""
        return self._reader.stream(artifact_id, offset, length)

    def read_slice(
        self, artifact_id: str, offset: int = 0, length: int | None = None, *, limit: int
    ) -> ArtifactSlice:
        """`read`, at most `limit` bytes of it, with the artifact's size and where the rest
        starts: how a driver with a bound (a model's context) says what it left out."""
        return self._reader.read_slice(artifact_id, offset, length, limit=limit)

    def read_lines(self, artifact_id: str, first: int, last: int | None = None) -> bytes:
        """Lines `first` to `last` (1-based, inclusive; None: to the end) of a stored
        artifact, byte for byte: each with its line ending as stored (``\n`` ends a line, so a
        CRLF line keeps its ``\r\n``; the file's last line may have none). `last` beyond the
        end is the end; `first` beyond it gives nothing. What a compression omitted, given
        back exactly."""
        return self._reader.read_lines(artifact_id, first, last)

    def stream_lines(
        self, artifact_id: str, first: int, last: int | None = None
    ) -> Iterator[bytes]:
        """`read_lines` in pieces of at most `CHUNK_BYTES`, for a range too large to hold.
        The range and the artifact are checked now, before the first piece is asked for."""
        return self._reader.stream_lines(artifact_id, first, last)

    def read_lines_slice(
        self, artifact_id: str, first: int, last: int | None = None, *, limit: int
    ) -> ArtifactSlice:
        """`read_lines`, at most `limit` bytes of it, as `read_slice`."""
        return self._reader.read_lines_slice(artifact_id, first, last, limit=limit)

    # -- retention -------------------------------------------------------------------------------

    def set_retention(self, artifact_id: str, retention: RetentionClass) -> StoredArtifact:
        """Put an artifact on hold (kept whatever the retention says) or release it."""
        return self._retention.set_retention(artifact_id, retention)

    def cleanup(self, *, dry_run: bool = False) -> CleanupReport:
        """Apply each project's retention (age in days, total bytes): expired artifacts lose
        their blob and keep their audit row (hash, size, times, who, findings). Artifacts on
        hold are kept. Blobs no stored row refers to (an importer died between publishing the
        blob and committing its row) are removed too, and so are temporary outputs whose
        grant expired unused, and temporary-output folders no pending grant refers to (an
        import killed after spending its reference). A blob published or reused in the last
        `blob_grace_seconds` (by default `BLOB_GRACE`) is left alone: an import running now, on
        this machine or another one sharing the store, may be about to commit the row that
        refers to it; so is a folder made in that time, whose grant's row may be on its way."""
        return self._retention.cleanup(dry_run=dry_run)
