"""The governed artifact store: data classification, governed large output.

Complete tool output goes here instead of into the prompt. An import is one streaming pass in
bounded chunks: the bytes go to a staging file while they are hashed (SHA-256) and scanned for
credentials; a clean import is fsynced and renamed into content-addressed storage, then its row
is committed; an import with a suspected credential deletes its staging data and leaves only a
blocked row (kinds and line numbers). The model gets a bounded preview: head and tail, byte
count, hash, media type, workspace-relative path and an id to fetch more.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import io
import os
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import BinaryIO

from cleveragents.application.ports.blob_storage import BlobStorage, BlobWriter
from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.contained_files import ContainedFiles
from cleveragents.application.ports.repositories import TempOutputRecord
from cleveragents.application.ports.secret_scanner import SecretMatch, SecretScanner, findings_of
from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
from cleveragents.application.services.governance.media_types import sniff_media_type
from cleveragents.application.services.governance.output_redaction import (
    OutputRedactor,
    redact_text,
)
from cleveragents.application.services.governance.previews import build_preview
from cleveragents.application.services.governance.secret_allowlist import (
    DEFAULT_ALLOWLIST_PATH,
    EMPTY_ALLOWLIST,
    MAX_ALLOWLIST_BYTES,
    SecretAllowlist,
    parse_allowlist,
)
from cleveragents.application.services.plans.project_service import default_project
from cleveragents.domain.classification import DataClass, Destination, require_allowed
from cleveragents.domain.errors import (
    InvalidInputError,
    NotFoundError,
    PlanNotFoundError,
    ProjectNotFoundError,
)
from cleveragents.domain.ids import new_ulid, parse_ulid
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project
from cleveragents.domain.secrets import SecretFinding
from cleveragents.domain.stored_artifact import (
    ArtifactPreview,
    ArtifactStatus,
    RetentionClass,
    StoredArtifact,
    TempOutputGrant,
)
from cleveragents.domain.stored_text import ARTIFACT_SOURCE_LENGTH, check_stored_text, refuse_nul

CHUNK_BYTES = 1 << 20
SNIFF_BYTES = 8192
TEMP_OUTPUT_TTL = timedelta(hours=24)
BLOB_GRACE = 3600.0  # seconds
REFERENCE_PREFIX = "tmpref_"
SHA256_REFERENCE = "sha256:"
TOOL_OUTPUT_SOURCE = "tool-output:"

Progress = Callable[[int], None]
# A finding on this line is in the output's name, not in its content.
NAME_LINE = 0


class SecretHandling(StrEnum):
    """What an import does with output in which a credential was found."""

    BLOCK = "block"  # nothing is stored; an audit row says what was found where
    REDACT = "redact"  # stored with each credential replaced by `[REDACTED:<rule>]`


class ArtifactNotStoredError(NotFoundError):
    """The artifact exists only as an audit row (blocked, or expired by retention)."""


class ReferenceRefusedError(InvalidInputError):
    """A temporary-output reference that the store did not issue, or already used, or expired.
    The message never says which: a forger learns nothing."""


@dataclass(frozen=True, slots=True)
class ImportResult:
    artifact: StoredArtifact
    preview: ArtifactPreview | None  # None when blocked
    # What was found (blocked) or replaced (redacted), with fingerprints for an allowlist.
    # Never stored: a fingerprint is a hash of the secret.
    matches: tuple[SecretMatch, ...] = ()

    @property
    def blocked(self) -> bool:
        return self.artifact.status is ArtifactStatus.BLOCKED

    @property
    def redacted(self) -> bool:
        return not self.blocked and bool(self.artifact.findings)

    @property
    def fingerprints(self) -> tuple[str, ...]:
        return tuple(sorted({match.fingerprint for match in self.matches}))

    @property
    def notice(self) -> str:
        if not self.artifact.findings:
            return f"stored artifact {self.artifact.id}"
        rules = ", ".join(sorted({m.rule for m in self.matches})) or ", ".join(
            sorted({f.kind.value for f in self.artifact.findings})
        )
        where = _where(self.artifact.findings)
        if self.redacted:
            return f"stored artifact {self.artifact.id} with credentials redacted ({rules}) {where}"
        allow = (
            # The workspace's file, or the one --allowlist names (the result does not know
            # which was used: both are said).
            f"; to allow them, add their fingerprints to the allowlist ({DEFAULT_ALLOWLIST_PATH}"
            " or --allowlist FILE): " + ", ".join(self.fingerprints)
            if self.fingerprints
            else ""
        )
        return (
            f"blocked: {self.artifact.workspace_path} looks like it contains credentials "
            f"({rules}) {where}; nothing was stored (audit row {self.artifact.id}; "
            f"--secrets redact stores it with them replaced){allow}"
        )


def _where(findings: tuple[SecretFinding, ...]) -> str:
    lines = sorted({f.line for f in findings if f.line != NAME_LINE})
    parts = []
    if any(f.line == NAME_LINE for f in findings):
        parts.append("in its file name")
    if lines:
        parts.append("on line(s) " + ", ".join(str(line) for line in lines))
    return " and ".join(parts)


@dataclass(frozen=True, slots=True)
class _ImportFacts:
    project_id: str
    plan_id: str | None
    workspace_path: str
    source: str
    media_type: str
    byte_count: int


@dataclass(frozen=True, slots=True)
class CleanupReport:
    expired: tuple[StoredArtifact, ...]
    freed_bytes: int
    orphan_blobs: int
    dry_run: bool
    stale_temp_outputs: int = 0


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
        self._uow_factory = uow_factory
        self._blobs = blobs
        self._blob_grace = blob_grace_seconds
        self._files = files
        self._scanner = scanner
        self._clock = clock
        self._user = user
        self._blobs.sweep_staging()  # what importers that died left behind

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
        require_allowed(DataClass.COMPLETE_OUTPUT, Destination.ARTIFACT_STORE)
        owner = self._owner(project, plan_id)
        allowed = self._allowlist(allowlist, workspace)
        contained = self._files.open_beneath(workspace, path)
        with contained.handle as handle:
            return self._ingest(
                handle,
                contained.relative_path,
                "workspace",
                owner,
                plan_id,
                progress,
                _Screening(secrets, allowed),
            )

    def import_output(
        self,
        data: bytes,
        label: str,
        *,
        project: str | None = None,
        secrets: SecretHandling = SecretHandling.BLOCK,
        allowlist: str | None = None,
    ) -> ImportResult:
        """Import output held in memory (a tool result a compaction shrank, or one an agent
        hands over), under ``tool-output/<label>``: hashed, scanned and previewed like a file;
        `secrets` and `allowlist` as for `import_file` (only the allowlist named applies). The
        same bytes imported again reuse the stored artifact (a compaction run twice stores its
        outputs once)."""
        require_allowed(DataClass.COMPLETE_OUTPUT, Destination.ARTIFACT_STORE)
        # The label is stored in the artifact's source, after its prefix.
        check_stored_text(label, "label", ARTIFACT_SOURCE_LENGTH - len(TOOL_OUTPUT_SOURCE))
        owner = self._owner(project, None)
        allowed = self._allowlist(allowlist, None)
        with self._uow_factory() as uow:
            existing = uow.artifacts.find_stored(hashlib.sha256(data).hexdigest())
        if existing is not None and existing.project_id == owner.id:
            return ImportResult(existing, self.preview(existing.id))
        name = f"tool-output/{label}"
        return self._ingest(
            io.BytesIO(data),
            name,
            f"{TOOL_OUTPUT_SOURCE}{label}",
            owner,
            None,
            None,
            _Screening(secrets, allowed),
        )

    def create_temp_output(self, tool_name: str) -> TempOutputGrant:
        """A file a trusted tool writes its output into, and the single-use reference that
        imports it: ``tmpref_<selector>.<verifier>``. The selector finds the record; the
        verifier (256 random bits) is compared in constant time with the SHA-256 kept of it."""
        if not tool_name.strip() or len(tool_name) > 100:
            raise InvalidInputError("a tool name of 1 to 100 characters is required")
        refuse_nul(tool_name, "the tool name")
        selector = secrets.token_hex(8)
        verifier = secrets.token_urlsafe(32)
        now = self._clock.now()
        record = TempOutputRecord(
            selector=selector,
            verifier_sha256=_sha256_text(verifier),
            tool_name=tool_name,
            path=self._blobs.temp_output_path(selector),
            expires_at=now + TEMP_OUTPUT_TTL,
        )
        with self._uow_factory() as uow:
            uow.temp_outputs.add(record, now)
            uow.commit()
        return TempOutputGrant(
            reference=f"{REFERENCE_PREFIX}{selector}.{verifier}",
            path=record.path,
            tool_name=tool_name,
            expires_at=record.expires_at,
        )

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
        owner = self._owner(project, plan_id)
        allowed = self._allowlist(allowlist, None)
        claim = self._claim(reference)
        root, relative = self._blobs.temp_output_location(claim.path)
        try:
            # The same fd-based checks as workspace files, from the store's root: no symlink,
            # FIFO, device or hard link planted in place of the output, or of a folder on the
            # way to it (the grant's, temp/), is followed.
            contained = self._files.open_beneath(root, relative)
        except NotFoundError:
            raise InvalidInputError(
                f"the tool {claim.tool_name!r} wrote nothing to its temporary output"
            ) from None
        with contained.handle as handle:
            result = self._ingest(
                handle,
                f"temp-output/{claim.tool_name}",
                f"temp-output:{claim.tool_name}",
                owner,
                plan_id,
                progress,
                _Screening(secrets, allowed),
            )
        # Only now: had the import failed (disk full, interrupted), the output would still be
        # there for a look, even though its single-use reference is spent.
        self._blobs.discard_temp_output(claim.path)
        return result

    def _allowlist(self, path: str | None, workspace: str | None) -> SecretAllowlist:
        """The allowlist file named, which must exist, or the workspace's, if it has one."""
        if path is not None:
            directory, name = os.path.split(os.path.abspath(path))
            try:
                contained = self._files.open_beneath(directory, name)
            except NotFoundError:
                raise InvalidInputError(f"no allowlist file at {path}") from None
        elif workspace is not None:
            try:
                contained = self._files.open_beneath(workspace, DEFAULT_ALLOWLIST_PATH)
            except NotFoundError:
                return EMPTY_ALLOWLIST
            path = contained.relative_path
        else:
            return EMPTY_ALLOWLIST
        with contained.handle as handle:
            return parse_allowlist(handle.read(MAX_ALLOWLIST_BYTES + 1), path)

    def _claim(self, reference: str) -> TempOutputRecord:
        refused = ReferenceRefusedError(
            "temporary-output reference refused: unknown, already used or expired"
        )
        selector, _, verifier = reference.removeprefix(REFERENCE_PREFIX).partition(".")
        if not reference.startswith(REFERENCE_PREFIX) or not selector or not verifier:
            raise refused
        with self._uow_factory() as uow:
            record = uow.temp_outputs.get(selector)
            # Constant time: how much of a forged verifier was right must not show in timing.
            genuine = record is not None and hmac.compare_digest(
                record.verifier_sha256, _sha256_text(verifier)
            )
            if record is None or not genuine:
                raise refused
            if not uow.temp_outputs.mark_used(selector, self._clock.now()):
                raise refused
            uow.commit()
        return record

    def _ingest(
        self,
        handle: BinaryIO,
        workspace_path: str,
        source: str,
        project: Project,
        plan_id: str | None,
        progress: Progress | None,
        screening: _Screening,
    ) -> ImportResult:
        allowlist = screening.allowlist
        # The name is output too: a tool can write a token into a file name.
        in_name = allowlist.keep(
            self._scanner.match_bytes(workspace_path.encode("utf-8", "surrogatepass")),
            workspace_path,
        )
        shown_path = redact_text(workspace_path, in_name) if in_name else workspace_path
        named = [SecretMatch(NAME_LINE, m.kind, m.rule, m.fingerprint) for m in in_name]
        policy = project.policy
        writer = self._blobs.begin()
        try:
            passed = _stream(handle, writer, self._scanner, policy, progress, None)
            found = allowlist.keep(passed.matches, workspace_path)
            facts = _ImportFacts(
                project_id=project.id,
                plan_id=plan_id,
                workspace_path=shown_path,
                source=source,
                media_type=sniff_media_type(workspace_path, passed.sniffed),
                byte_count=passed.total,
            )
            matches = tuple(named + found)
            redact = screening.secrets is SecretHandling.REDACT and (not found or handle.seekable())
            if matches and not redact:
                writer.abort()
                blocked = self._register(facts, None, tuple(findings_of(list(matches))))
                return ImportResult(blocked, None, matches)
            if found:
                writer.abort()
                writer = self._blobs.begin()
                redacted = self._redacted_pass(
                    handle, writer, policy, passed, found, screening, workspace_path
                )
                if redacted is None:
                    writer.abort()
                    blocked = self._register(facts, None, tuple(findings_of(list(matches))))
                    return ImportResult(blocked, None, matches)
                passed = redacted
                facts = dataclasses.replace(facts, byte_count=passed.total)
            writer.commit(passed.sha256)
        except BaseException:
            writer.abort()
            raise
        artifact = self._register(facts, passed.sha256, tuple(findings_of(list(matches))))
        head_limit = policy.effective_preview_head_bytes
        preview = self._preview(artifact, passed.head[:head_limit], passed.tail)
        return ImportResult(artifact, preview, matches)

    def _redacted_pass(
        self,
        handle: BinaryIO,
        writer: BlobWriter,
        policy: ContextPolicy,
        scanned: _Passed,
        found: list[SecretMatch],
        screening: _Screening,
        workspace_path: str,
    ) -> _Passed | None:
        """The output again, with `found` replaced, into `writer`; None when the bytes read
        now are not the bytes scanned (their SHA-256 differs), or when the redacted output
        still shows a credential (a scanner that gave no span, a credential made by joining
        the text around a notice): then nothing is stored."""
        handle.seek(0)
        redacted = _stream(handle, writer, self._scanner, policy, None, OutputRedactor(found))
        remaining = screening.allowlist.keep(redacted.matches, workspace_path)
        if redacted.source_sha256 != scanned.sha256 or remaining:
            return None
        return redacted

    def _register(
        self, facts: _ImportFacts, sha256: str | None, findings: tuple[SecretFinding, ...]
    ) -> StoredArtifact:
        """The metadata row, committed only after the blob is in place (a crash in between
        leaves an orphan blob for cleanup, never a row without its blob). A blocked import
        (no hash) records where and what was found, nothing of the secret; a redacted one
        records the same next to its hash."""
        artifact = StoredArtifact(
            id=new_ulid(),
            project_id=facts.project_id,
            plan_id=facts.plan_id,
            sha256=sha256,
            byte_count=facts.byte_count,
            media_type=facts.media_type,
            workspace_path=facts.workspace_path,
            status=ArtifactStatus.BLOCKED if sha256 is None else ArtifactStatus.STORED,
            source=facts.source,
            created_by=self._user,
            created_at=self._clock.now(),
            findings=findings,
        )
        with self._uow_factory() as uow:
            uow.artifacts.add(artifact)
            uow.commit()
        return artifact

    # -- reading ---------------------------------------------------------------------------------

    def get(self, artifact_id: str) -> StoredArtifact:
        """The artifact with this id, or ``sha256:<hex>``: the oldest stored one with that
        content (how a compaction's marker names a shrunk tool output, the same every run)."""
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
        return self._preview(artifact, head, tail)

    def read(self, artifact_id: str, offset: int = 0, length: int = CHUNK_BYTES) -> bytes:
        """Bytes of a stored artifact, to fetch more than the preview."""
        if offset < 0 or length < 0:
            raise InvalidInputError("offset and length must be >= 0")
        artifact = self._stored(artifact_id)
        assert artifact.sha256 is not None
        with self._blobs.open(artifact.sha256) as handle:
            handle.seek(offset)
            return handle.read(length)

    def read_lines(self, artifact_id: str, first: int, last: int) -> bytes:
        """Lines `first` to `last` (1-based, inclusive) of a stored artifact, byte for byte:
        each with its line ending as stored (``\n`` ends a line, so a CRLF line keeps its
        ``\r\n``; the file's last line may have none). `last` beyond the end is the end;
        `first` beyond it gives nothing. What a compression omitted, given back exactly."""
        return b"".join(self.stream_lines(artifact_id, first, last))

    def stream_lines(self, artifact_id: str, first: int, last: int) -> Iterator[bytes]:
        """`read_lines` in pieces of at most `CHUNK_BYTES`, for a range too large to hold.
        The range and the artifact are checked now, before the first piece is asked for."""
        if isinstance(first, bool) or isinstance(last, bool) or first < 1 or last < first:
            raise InvalidInputError(
                f"a line range is FIRST-LAST with 1 <= FIRST <= LAST, got {first}-{last}"
            )
        artifact = self._stored(artifact_id)
        assert artifact.sha256 is not None
        return self._blob_lines(artifact.sha256, first, last)

    def _blob_lines(self, sha256: str, first: int, last: int) -> Iterator[bytes]:
        with self._blobs.open(sha256) as handle:
            yield from lines_between(iter(lambda: handle.read(CHUNK_BYTES), b""), first, last)

    def _stored(self, artifact_id: str) -> StoredArtifact:
        artifact = self.get(artifact_id)
        if artifact.status is not ArtifactStatus.STORED:
            raise ArtifactNotStoredError(
                f"artifact {artifact.id} is {artifact.status.value}: only its audit row remains"
            )
        return artifact

    def _preview(self, artifact: StoredArtifact, head: bytes, tail: bytes) -> ArtifactPreview:
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

    # -- retention -------------------------------------------------------------------------------

    def set_retention(self, artifact_id: str, retention: RetentionClass) -> StoredArtifact:
        artifact = self.get(artifact_id)
        updated = artifact.model_copy(update={"retention_class": retention})
        with self._uow_factory() as uow:
            uow.artifacts.save(updated)
            uow.commit()
        return updated

    def cleanup(self, *, dry_run: bool = False) -> CleanupReport:
        """Apply each project's retention (age in days, total bytes): expired artifacts lose
        their blob and keep their audit row (hash, size, times, who, findings). Artifacts on
        hold are kept. Blobs no stored row refers to (an importer died between publishing the
        blob and committing its row) are removed too, and so are temporary outputs whose
        grant expired unused. A blob published or reused in the last `blob_grace_seconds` (by
        default `BLOB_GRACE`) is left alone: an import running now, on this machine or another
        one sharing the store, may be about to commit the row that refers to it."""
        now = self._clock.now()
        with self._uow_factory() as uow:
            expiring = [
                artifact
                for project in uow.projects.list()
                for artifact in _over_retention(uow, project, now)
            ]
            expired = tuple(
                artifact.model_copy(update={"status": ArtifactStatus.EXPIRED, "expired_at": now})
                for artifact in expiring
            )
            stale_grants = uow.temp_outputs.expired(now)
            if not dry_run:
                for artifact in expired:
                    uow.artifacts.save(artifact)
                for grant in stale_grants:
                    uow.temp_outputs.delete(grant.selector)
                uow.commit()
            expired_ids = {artifact.id for artifact in expired}
            keep = {
                artifact.sha256
                for artifact in uow.artifacts.list(status=ArtifactStatus.STORED)
                if artifact.sha256 and artifact.id not in expired_ids
            }
        removable = [
            digest
            for digest in self._blobs.all_digests()
            if digest not in keep and self._is_old(digest, now)
        ]
        freed = 0
        for digest in removable:
            try:
                size = self._blobs.size(digest)
                # Checked again right before deleting: an import may have reused it meanwhile.
                if not dry_run and self._is_old(digest, now):
                    self._blobs.delete(digest)
            except FileNotFoundError:
                continue  # another cleanup got there first
            freed += size
        if not dry_run:
            for grant in stale_grants:
                self._blobs.discard_temp_output(grant.path)
        expired_digests = {a.sha256 for a in expired if a.sha256}
        orphans = len([d for d in removable if d not in expired_digests])
        return CleanupReport(expired, freed, orphans, dry_run, len(stale_grants))

    # -- helpers ---------------------------------------------------------------------------------

    def _is_old(self, digest: str, now: datetime) -> bool:
        try:
            return now.timestamp() - self._blobs.modified_at(digest) > self._blob_grace
        except FileNotFoundError:
            return False

    def _owner(self, project: str | None, plan_id: str | None) -> Project:
        """The project an import belongs to: the plan's, else the named one, else
        ``default`` (created on first use). With a plan, the returned project carries the
        plan's policy overrides (preview sizes) merged over its own."""
        with self._uow_factory() as uow:
            if plan_id is not None:
                canonical = parse_ulid(plan_id, "plan id")
                plan = uow.plans.get(canonical)
                if plan is None:
                    raise PlanNotFoundError(canonical)
                owner = uow.projects.get(plan.project_id)
                assert owner is not None
                if project is not None and owner.name != project:
                    raise InvalidInputError(
                        f"plan {canonical} belongs to project {owner.name!r}, not {project!r}"
                    )
                return owner.model_copy(update={"policy": owner.policy.overridden_by(plan.policy)})
            if project is not None:
                found = uow.projects.get_by_name(project)
                if found is None:
                    raise ProjectNotFoundError(project)
                return found
        return default_project(self._uow_factory)


def _over_retention(uow: UnitOfWork, project: Project, now: datetime) -> list[StoredArtifact]:
    policy = project.policy
    stored = uow.artifacts.list(project.id, ArtifactStatus.STORED)
    candidates = [a for a in stored if a.retention_class is RetentionClass.STANDARD]
    expiring: dict[str, StoredArtifact] = {}
    if policy.artifact_retention_days is not None:
        cutoff = now - timedelta(days=policy.artifact_retention_days)
        expiring.update((a.id, a) for a in candidates if a.created_at < cutoff)
    if policy.artifact_retention_bytes is not None:
        # Bytes on disk: a content imported several times is one blob, counted once.
        users: dict[str, int] = {}
        for artifact in stored:
            if artifact.id not in expiring and artifact.sha256:
                users[artifact.sha256] = users.get(artifact.sha256, 0) + 1
        sizes = {a.sha256: a.byte_count for a in stored if a.sha256}
        total = sum(sizes[digest] for digest in users)
        for artifact in candidates:  # oldest first
            if total <= policy.artifact_retention_bytes:
                break
            if artifact.id in expiring or not artifact.sha256:
                continue
            expiring[artifact.id] = artifact
            users[artifact.sha256] -= 1
            if users[artifact.sha256] == 0:  # its blob's last stored row: the bytes go
                del users[artifact.sha256]
                total -= artifact.byte_count
    return sorted(expiring.values(), key=lambda a: (a.created_at, a.id))


@dataclass(frozen=True, slots=True)
class _Screening:
    secrets: SecretHandling = SecretHandling.BLOCK
    allowlist: SecretAllowlist = EMPTY_ALLOWLIST


@dataclass(frozen=True, slots=True)
class _Passed:
    """One pass over an output: what was written (its hash, size, head and tail) and found."""

    sha256: str
    source_sha256: str  # of the bytes read (the same as `sha256` unless redacted)
    total: int
    sniffed: bytes
    head: bytes
    tail: bytes
    matches: list[SecretMatch]


def _stream(
    handle: BinaryIO,
    writer: BlobWriter,
    scanner: SecretScanner,
    policy: ContextPolicy,
    progress: Progress | None,
    redactor: OutputRedactor | None,
) -> _Passed:
    """Read `handle` in bounded chunks into `writer` (through `redactor`, if any), hashing and
    scanning what is written, keeping the head and tail for the preview."""
    head_limit = policy.effective_preview_head_bytes
    tail_limit = policy.effective_preview_tail_bytes
    keep = max(head_limit, SNIFF_BYTES)
    scan = scanner.start()
    digest = hashlib.sha256()
    source_digest = hashlib.sha256() if redactor is not None else digest
    head = bytearray()
    tail = b""
    total = 0
    read = 0
    while chunk := handle.read(CHUNK_BYTES):
        read += len(chunk)
        if redactor is not None:
            source_digest.update(chunk)
            chunk = redactor.feed(chunk)
        writer.write(chunk)
        digest.update(chunk)
        scan.feed(chunk)
        if len(head) < keep:
            head += chunk[: keep - len(head)]
        tail = (tail + chunk)[-tail_limit:]  # the policy's tail is never 0
        total += len(chunk)
        if progress is not None:
            progress(read)
    return _Passed(
        sha256=digest.hexdigest(),
        source_sha256=source_digest.hexdigest(),
        total=total,
        sniffed=bytes(head[:SNIFF_BYTES]),
        head=bytes(head),
        tail=tail,
        matches=scan.finish_matches(),
    )


def lines_between(chunks: Iterable[bytes], first: int, last: int) -> Iterator[bytes]:
    """The bytes of lines `first`..`last` (1-based) of a stream cut into `chunks` anywhere,
    one piece per chunk that holds some of them. Lines are only counted (``bytes.count``)
    in a chunk that lies wholly before or inside the range; only the chunks where the range
    starts or ends are searched newline by newline."""
    line = 1  # the line the next byte belongs to
    for chunk in chunks:
        start, line = _skip_to_line(chunk, 0, line, first)
        if line < first:
            continue
        end, line = _skip_to_line(chunk, start, line, last + 1)
        if end > start:
            yield chunk[start:end]
        if line > last:
            return


def _skip_to_line(chunk: bytes, position: int, line: int, target: int) -> tuple[int, int]:
    """From `position` in `chunk`, on line `line`: the position where line `target` starts
    and `target`, or the chunk's end and the line it ends on when `target` starts later."""
    if line >= target:
        return position, line
    newlines = chunk.count(b"\n", position)
    if line + newlines < target:
        return len(chunk), line + newlines
    for _ in range(target - line):
        position = chunk.index(b"\n", position) + 1
    return position, target


def _sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()
