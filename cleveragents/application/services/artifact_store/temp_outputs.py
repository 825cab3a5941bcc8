"""Trusted temporary outputs: a private file a tool writes, imported once by its reference.

A reference is ``tmpref_<selector>.<verifier>``: the selector finds the record, the verifier
(256 random bits) proves the store issued it. Only the verifier's SHA-256 is kept, so a copy of
the database imports nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets as random_tokens
from datetime import timedelta

from cleveragents.application.ports.blob_storage import BlobStorage
from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.contained_files import ContainedFiles
from cleveragents.application.ports.repositories import TempOutputRecord
from cleveragents.application.ports.unit_of_work import UnitOfWorkFactory
from cleveragents.application.services.artifact_store.importing import (
    ArtifactImporter,
    Progress,
    Screening,
)
from cleveragents.application.services.artifact_store.results import (
    ImportResult,
    ReferenceRefusedError,
    SecretHandling,
)
from cleveragents.domain.errors import InvalidInputError, NotFoundError
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import TempOutputGrant
from cleveragents.domain.stored_text import refuse_nul

TEMP_OUTPUT_TTL = timedelta(hours=24)
REFERENCE_PREFIX = "tmpref_"


class TempOutputs:
    """The temporary-output half of `ArtifactStore`: what it exposes is documented there."""

    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        blobs: BlobStorage,
        files: ContainedFiles,
        clock: Clock,
        importer: ArtifactImporter,
    ) -> None:
        self._uow_factory = uow_factory
        self._blobs = blobs
        self._files = files
        self._clock = clock
        self._importer = importer

    def create(self, tool_name: str) -> TempOutputGrant:
        if not tool_name.strip() or len(tool_name) > 100:
            raise InvalidInputError("a tool name of 1 to 100 characters is required")
        refuse_nul(tool_name, "the tool name")
        selector = random_tokens.token_hex(8)
        verifier = random_tokens.token_urlsafe(32)
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

    def import_reference(
        self,
        reference: str,
        *,
        project: str | None,
        plan_id: str | None,
        progress: Progress | None,
        secrets: SecretHandling,
        allowlist: str | None,
    ) -> ImportResult:
        # The owner and the allowlist first: a wrong project or a missing allowlist file must
        # not spend the single-use reference.
        owner = self._importer.owner(project, plan_id)
        allowed = self._importer.allowlist(allowlist, None)
        claim = self._claim(reference)
        try:
            return self._import_claimed(
                claim, owner, plan_id, progress, Screening(secrets, allowed)
            )
        finally:
            # Whatever the outcome: the reference is spent, so nothing can import this output
            # again, and a refused one (a symlink, a hard link to a file outside, a FIFO, a
            # folder) must not stay in the store, nor keep a second name for an outside file.
            self._blobs.discard_temp_output(claim.path)

    def _import_claimed(
        self,
        claim: TempOutputRecord,
        owner: Project,
        plan_id: str | None,
        progress: Progress | None,
        screening: Screening,
    ) -> ImportResult:
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
            return self._importer.ingest(
                handle,
                f"temp-output/{claim.tool_name}",
                f"temp-output:{claim.tool_name}",
                owner,
                plan_id,
                progress,
                screening,
            )

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


def _sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()
