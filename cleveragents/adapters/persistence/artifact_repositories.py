"""SQLAlchemy repositories of the artifact store."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from cleveragents.adapters.persistence.rows import ArtifactRow, TempOutputRow
from cleveragents.adapters.persistence.times import utc
from cleveragents.application.ports.repositories import (
    ArtifactRepository,
    TempOutputRecord,
    TempOutputRepository,
)
from cleveragents.domain.secrets import SecretFinding, SecretKind
from cleveragents.domain.stored_artifact import ArtifactStatus, RetentionClass, StoredArtifact


def _aware(moment: datetime | None) -> datetime | None:
    return None if moment is None else utc(moment)


def _findings_json(findings: tuple[SecretFinding, ...]) -> str:
    return json.dumps([{"line": f.line, "kind": f.kind.value} for f in findings])


def _to_domain(row: ArtifactRow) -> StoredArtifact:
    created_at = _aware(row.created_at)
    assert created_at is not None
    return StoredArtifact(
        id=row.id,
        project_id=row.project_id,
        plan_id=row.plan_id,
        sha256=row.sha256,
        byte_count=row.byte_count,
        media_type=row.media_type,
        workspace_path=row.workspace_path,
        status=ArtifactStatus(row.status),
        retention_class=RetentionClass(row.retention_class),
        source=row.source,
        created_by=row.created_by,
        created_at=created_at,
        expires_at=_aware(row.expires_at),
        expired_at=_aware(row.expired_at),
        findings=tuple(
            SecretFinding(line=item["line"], kind=SecretKind(item["kind"]))
            for item in json.loads(row.findings)
        ),
    )


class SqlaArtifactRepository(ArtifactRepository):
    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, artifact: StoredArtifact) -> None:
        values = artifact.model_dump(exclude={"findings"})
        values["status"] = artifact.status.value
        values["retention_class"] = artifact.retention_class.value
        self._session.add(ArtifactRow(**values, findings=_findings_json(artifact.findings)))
        self._session.flush()

    def get(self, artifact_id: str) -> StoredArtifact | None:
        row = self._session.get(ArtifactRow, artifact_id)
        return None if row is None else _to_domain(row)

    def save(self, artifact: StoredArtifact) -> None:
        self._session.execute(
            update(ArtifactRow)
            .where(ArtifactRow.id == artifact.id)
            .values(
                status=artifact.status.value,
                retention_class=artifact.retention_class.value,
                expires_at=artifact.expires_at,
                expired_at=artifact.expired_at,
            )
        )

    def list(
        self, project_id: str | None = None, status: ArtifactStatus | None = None
    ) -> list[StoredArtifact]:
        query = select(ArtifactRow).order_by(ArtifactRow.created_at, ArtifactRow.id)
        if project_id is not None:
            query = query.where(ArtifactRow.project_id == project_id)
        if status is not None:
            query = query.where(ArtifactRow.status == status.value)
        return [_to_domain(row) for row in self._session.scalars(query)]

    def find_stored(self, sha256: str) -> StoredArtifact | None:
        query = (
            select(ArtifactRow)
            .where(ArtifactRow.sha256 == sha256)
            .where(ArtifactRow.status == ArtifactStatus.STORED.value)
            .order_by(ArtifactRow.created_at, ArtifactRow.id)
            .limit(1)
        )
        row = self._session.scalars(query).first()
        return None if row is None else _to_domain(row)


class SqlaTempOutputRepository(TempOutputRepository):
    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, record: TempOutputRecord, created_at: datetime) -> None:
        self._session.add(
            TempOutputRow(
                selector=record.selector,
                verifier_sha256=record.verifier_sha256,
                tool_name=record.tool_name,
                path=record.path,
                created_at=created_at,
                expires_at=record.expires_at,
            )
        )
        self._session.flush()

    def get(self, selector: str) -> TempOutputRecord | None:
        row = self._session.get(TempOutputRow, selector)
        if row is None:
            return None
        expires_at = _aware(row.expires_at)
        assert expires_at is not None
        return TempOutputRecord(
            selector=row.selector,
            verifier_sha256=row.verifier_sha256,
            tool_name=row.tool_name,
            path=row.path,
            expires_at=expires_at,
            used_at=_aware(row.used_at),
        )

    def expired(self, now: datetime) -> list[TempOutputRecord]:
        query = select(TempOutputRow.selector).where(
            TempOutputRow.used_at.is_(None), TempOutputRow.expires_at <= now
        )
        records = (self.get(selector) for selector in self._session.scalars(query))
        return [record for record in records if record is not None]

    def delete(self, selector: str) -> None:
        self._session.execute(delete(TempOutputRow).where(TempOutputRow.selector == selector))

    def mark_used(self, selector: str, now: datetime) -> bool:
        # One conditional UPDATE: the database decides which of two racing claims wins.
        result = self._session.execute(
            update(TempOutputRow)
            .where(
                TempOutputRow.selector == selector,
                TempOutputRow.used_at.is_(None),
                TempOutputRow.expires_at > now,
            )
            .values(used_at=now)
        )
        return getattr(result, "rowcount", 0) == 1
