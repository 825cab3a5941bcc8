"""Importing output into the artifact store: one streaming pass, screened for credentials.

The pass reads in bounded chunks: the bytes go to a staging blob while they are hashed (SHA-256)
and scanned; a clean import is published, then its row is committed; an import with a suspected
credential aborts its staging blob and leaves only a blocked row (kinds and line numbers), unless
it is redacted: read again with each credential replaced, and stored so.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from cleveragents.application.ports.blob_storage import BlobStorage, BlobWriter
from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.contained_files import ContainedFiles
from cleveragents.application.ports.secret_scanner import (
    SecretMatch,
    SecretScan,
    SecretScanner,
    findings_of,
)
from cleveragents.application.ports.unit_of_work import UnitOfWorkFactory
from cleveragents.application.services.artifact_store.reading import CHUNK_BYTES, ArtifactReader
from cleveragents.application.services.artifact_store.results import (
    NAME_LINE,
    ImportResult,
    SecretHandling,
)
from cleveragents.application.services.artifact_store.write_behind import WriteBehind
from cleveragents.application.services.governance.media_types import sniff_media_type
from cleveragents.application.services.governance.output_redaction import (
    OutputRedactor,
    redact_text,
    whole_matches,
)
from cleveragents.application.services.governance.secret_allowlist import (
    DEFAULT_ALLOWLIST_PATH,
    EMPTY_ALLOWLIST,
    MAX_ALLOWLIST_BYTES,
    SecretAllowlist,
    parse_allowlist,
)
from cleveragents.application.services.projects.project_service import default_project
from cleveragents.domain.classification import DataClass, Destination, require_allowed
from cleveragents.domain.errors import (
    InvalidInputError,
    NotFoundError,
    PlanNotFoundError,
    ProjectNotFoundError,
    WorkdirNotFoundError,
)
from cleveragents.domain.ids import new_ulid, parse_ulid
from cleveragents.domain.output_labels import TOOL_OUTPUT_SOURCE, normalised_label
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project
from cleveragents.domain.secrets import SecretFinding
from cleveragents.domain.stored_artifact import ArtifactStatus, StoredArtifact

SNIFF_BYTES = 8192

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Screening:
    """What an import does with the credentials it finds, and which ones it lets through.

    `honour_allow_markers` trusts the inline `cleveragents:allow-secret` marker in the content
    (never in the name): only a file of the user's workspace imported by path sets it, since
    tool output, temporary outputs and anything handed over in memory can print the marker."""

    secrets: SecretHandling = SecretHandling.BLOCK
    allowlist: SecretAllowlist = EMPTY_ALLOWLIST
    honour_allow_markers: bool = False


class ArtifactImporter:
    """The importing half of `ArtifactStore`: what it exposes is documented there."""

    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        blobs: BlobStorage,
        files: ContainedFiles,
        scanner: SecretScanner,
        clock: Clock,
        user: str,
        reader: ArtifactReader,
    ) -> None:
        self._uow_factory = uow_factory
        self._blobs = blobs
        self._files = files
        self._scanner = scanner
        self._clock = clock
        self._user = user
        self._reader = reader

    def import_file(
        self,
        workspace: str,
        path: str,
        *,
        project: str | None,
        plan_id: str | None,
        progress: Progress | None,
        secrets: SecretHandling,
        allowlist: str | None,
    ) -> ImportResult:
        require_allowed(DataClass.COMPLETE_OUTPUT, Destination.ARTIFACT_STORE)
        owner = self.owner(project, plan_id)
        allowed = self.allowlist(allowlist, workspace)
        contained = self._files.open_beneath(workspace, path)
        with contained.handle as handle:
            return self.ingest(
                handle,
                contained.relative_path,
                "workspace",
                owner,
                plan_id,
                progress,
                Screening(secrets, allowed, honour_allow_markers=True),
            )

    def import_output(
        self,
        data: bytes,
        label: str,
        *,
        project: str | None,
        secrets: SecretHandling,
        allowlist: str | None,
        plan_id: str | None = None,
    ) -> ImportResult:
        require_allowed(DataClass.COMPLETE_OUTPUT, Destination.ARTIFACT_STORE)
        label = normalised_label(label)  # a name, stored in the artifact's source
        owner = self.owner(project, plan_id)
        allowed = self.allowlist(allowlist, None)
        with self._uow_factory() as uow:
            existing = uow.artifacts.find_stored(hashlib.sha256(data).hexdigest())
        if existing is not None and (existing.project_id, existing.plan_id) == (owner.id, plan_id):
            return ImportResult(existing, self._reader.preview(existing.id))
        name = f"tool-output/{label}"
        return self.ingest(
            io.BytesIO(data),
            name,
            f"{TOOL_OUTPUT_SOURCE}{label}",
            owner,
            plan_id,
            None,
            Screening(secrets, allowed),
        )

    def allowlist(self, path: str | None, workspace: str | None) -> SecretAllowlist:
        """The allowlist file named, which must exist, or the workspace's, if it has one."""
        if path is not None:
            directory, name = os.path.split(os.path.abspath(path))
            try:
                contained = self._files.open_beneath(directory, name)
            except (NotFoundError, WorkdirNotFoundError):
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

    def owner(self, project: str | None, plan_id: str | None) -> Project:
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

    def ingest(
        self,
        handle: BinaryIO,
        workspace_path: str,
        source: str,
        project: Project,
        plan_id: str | None,
        progress: Progress | None,
        screening: Screening,
    ) -> ImportResult:
        """The pipeline every import shares, from an open `handle` to a committed row."""
        allowlist = screening.allowlist
        # The name is output too: a tool can write a token into a file name (and the marker
        # beside it), so the name never honours the inline marker.
        in_name = allowlist.keep(
            self._scanner.match_bytes(workspace_path.encode("utf-8", "surrogatepass")),
            workspace_path,
        )
        shown_path = redact_text(workspace_path, in_name) if in_name else workspace_path
        named = [SecretMatch(NAME_LINE, m.kind, m.rule, m.fingerprint) for m in in_name]
        policy = project.policy
        writer = self._blobs.begin()
        try:
            passed = _stream(handle, writer, self._scan(screening), policy, progress, None)
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
        preview = self._reader.preview_of(artifact, passed.head[:head_limit], passed.tail)
        return ImportResult(artifact, preview, matches)

    def _redacted_pass(
        self,
        handle: BinaryIO,
        writer: BlobWriter,
        policy: ContextPolicy,
        scanned: _Passed,
        found: list[SecretMatch],
        screening: Screening,
        workspace_path: str,
    ) -> _Passed | None:
        """The output again, with `found` replaced, into `writer`; None when the bytes read
        now are not the bytes scanned (their SHA-256 differs), or when the redacted output
        still shows a credential (a scanner that gave no span, a credential made by joining
        the text around a notice): then nothing is stored."""
        whole = whole_matches(handle, found)  # each value whole, not what a pattern took
        handle.seek(0)
        redacted = _stream(
            handle, writer, self._scan(screening), policy, None, OutputRedactor(whole)
        )
        remaining = screening.allowlist.keep(redacted.matches, workspace_path)
        if redacted.source_sha256 != scanned.sha256 or remaining:
            return None
        return redacted

    def _scan(self, screening: Screening) -> SecretScan:
        """A scan of the content as `screening` says (the same for both passes, so the
        redacted pass does not find again what the first pass was told to let through)."""
        return self._scanner.start(honour_allow_markers=screening.honour_allow_markers)

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


@dataclass(frozen=True, slots=True)
class _ImportFacts:
    project_id: str
    plan_id: str | None
    workspace_path: str
    source: str
    media_type: str
    byte_count: int


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
    scan: SecretScan,
    policy: ContextPolicy,
    progress: Progress | None,
    redactor: OutputRedactor | None,
) -> _Passed:
    """Read `handle` in bounded chunks into `writer` (through `redactor`, if any), hashing and
    scanning (with `scan`, new) what is written, keeping the head and tail for the preview."""
    head_limit = policy.effective_preview_head_bytes
    tail_limit = policy.effective_preview_tail_bytes
    keep = max(head_limit, SNIFF_BYTES)
    digest = hashlib.sha256()
    source_digest = hashlib.sha256() if redactor is not None else digest
    head = bytearray()
    tail = b""
    total = 0
    read = 0
    with WriteBehind(writer, digest) as written:  # written and hashed while the scan runs
        while chunk := handle.read(CHUNK_BYTES):
            read += len(chunk)
            if redactor is not None:
                source_digest.update(chunk)
                chunk = redactor.feed(chunk)
            written.put(chunk)
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
