"""Retention and cleanup: expiring artifacts by age and by bytes, removing unreferenced blobs.

An expired artifact loses its blob and keeps its audit row. A blob no stored row refers to is
removed only once it is older than the grace period: an import publishes its blob a moment
before it commits the row that refers to it. The same grace applies to a temporary output's
folder that no pending grant refers to (its reference spent by an import that was killed, or no
row at all): the store makes the folder a moment before it commits the grant's row.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from cleveragents.application.ports.blob_storage import BlobStorage, TempOutputFolder
from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
from cleveragents.application.services.artifact_store.reading import ArtifactReader
from cleveragents.application.services.artifact_store.results import CleanupReport
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import ArtifactStatus, RetentionClass, StoredArtifact

BLOB_GRACE = 3600.0  # seconds


class Retention:
    """The retention half of `ArtifactStore`: what it exposes is documented there."""

    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        blobs: BlobStorage,
        clock: Clock,
        reader: ArtifactReader,
        blob_grace_seconds: float,
    ) -> None:
        self._uow_factory = uow_factory
        self._blobs = blobs
        self._clock = clock
        self._reader = reader
        self._blob_grace = blob_grace_seconds

    def set_retention(self, artifact_id: str, retention: RetentionClass) -> StoredArtifact:
        artifact = self._reader.get(artifact_id)
        updated = artifact.model_copy(update={"retention_class": retention})
        with self._uow_factory() as uow:
            uow.artifacts.save(updated)
            uow.commit()
        return updated

    def cleanup(self, *, dry_run: bool) -> CleanupReport:
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
        orphan_folders = self._orphan_temp_outputs(now, {g.selector for g in stale_grants})
        if not dry_run:
            for grant in stale_grants:
                self._blobs.discard_temp_output(grant.path)
            for folder in orphan_folders:
                self._blobs.discard_temp_output(folder.path)
        expired_digests = {a.sha256 for a in expired if a.sha256}
        orphans = len([d for d in removable if d not in expired_digests])
        return CleanupReport(
            expired, freed, orphans, dry_run, len(stale_grants), len(orphan_folders)
        )

    def _orphan_temp_outputs(self, now: datetime, expiring: set[str]) -> list[TempOutputFolder]:
        """Temporary-output folders older than the grace period whose grant is spent or gone.
        A pending grant's folder (unused, unexpired) is never one: its tool may be writing. An
        expired unused grant's folder is not counted here: `cleanup` removes it with its row.
        Removing a spent grant's folder under an import still reading it is harmless: the
        import reads from the descriptor it opened."""
        old = [
            folder
            for folder in self._blobs.temp_output_folders()
            if folder.selector not in expiring
            and now.timestamp() - folder.modified_at > self._blob_grace
        ]
        if not old:
            return []
        orphans = []
        with self._uow_factory() as uow:
            for folder in old:
                grant = uow.temp_outputs.get(folder.selector)
                if grant is None or grant.used_at is not None:
                    orphans.append(folder)
        return orphans

    def _is_old(self, digest: str, now: datetime) -> bool:
        try:
            return now.timestamp() - self._blobs.modified_at(digest) > self._blob_grace
        except FileNotFoundError:
            return False


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
