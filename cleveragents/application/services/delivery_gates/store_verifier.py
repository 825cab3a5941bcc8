"""`agents verify`: the five stop conditions checked on what the store holds.

* workspace escape: every artifact row's recorded path (`workspace_escape`);
* a credential shown: every stored artifact's preview, rebuilt from its blob as the store
  serves it; the compaction summaries found in stored transcripts; the payloads of the
  compaction events (what the store keeps of a summary: its fingerprint and figures);
* a missing tail: every stored artifact's preview against its blob's real end;
* unfinished work: compaction events whose payload records unfinished items left out, and
  stored transcripts holding a summary and the messages it replaced;
* a fabricated cache metric: every usage record against the locked catalog.

The store keeps no compressed output (a compression is returned, not stored: `--store` keeps
the original), so there is none to check. Everything is read, nothing is changed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cleveragents.application.ports.blob_storage import BlobMissingError, BlobStorage
from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
from cleveragents.application.ports.usage_ledger import UsageLedger
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.application.services.delivery_gates.cache_metrics import cache_claims
from cleveragents.application.services.delivery_gates.preview_tails import stored_tail_violations
from cleveragents.application.services.delivery_gates.secrets_shown import (
    preview_secrets,
    text_secrets,
)
from cleveragents.application.services.delivery_gates.unfinished_work import (
    recorded_omissions,
    summary_positions,
    unfinished_omissions,
)
from cleveragents.application.services.delivery_gates.violations import (
    StopCondition,
    Violation,
    ordered,
)
from cleveragents.application.services.delivery_gates.workspace_escape import artifact_escapes
from cleveragents.domain.errors import InvalidInputError, ProjectNotFoundError
from cleveragents.domain.event import CONTEXT_COMPACTED, CONTEXT_COMPACTION_FAILED, RecordedEvent
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import ArtifactStatus, StoredArtifact
from cleveragents.domain.transcript import Transcript

TRANSCRIPT_MEDIA_TYPES = frozenset({"application/json", "application/jsonl"})
LARGEST_STORED_TRANSCRIPT = 256 * 1024 * 1024
"""Stored transcripts above this are not parsed (the transcript commands' own limit): the
report counts them as unchecked."""


@dataclass(frozen=True, slots=True)
class StoreVerification:
    """What `verify` looked at and what it found. `passed` when nothing stops delivery."""

    scope: str  # "all", or "project <name>"
    violations: tuple[Violation, ...]
    artifacts: int
    previews: int
    transcripts: int
    compaction_events: int
    usage_records: int
    unchecked: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        return not self.violations

    def as_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "passed": self.passed,
            "checked": {
                "artifacts": self.artifacts,
                "previews": self.previews,
                "transcripts": self.transcripts,
                "compaction_events": self.compaction_events,
                "usage_records": self.usage_records,
            },
            "unchecked": list(self.unchecked),
            "violations": [violation.as_dict() for violation in self.violations],
        }


class StoreVerifier:
    """The stop conditions on the store. Container name: ``store_verifier``."""

    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        store: ArtifactStore,
        blobs: BlobStorage,
        scanner: SecretScanner,
        events: EventSink,
        ledger: UsageLedger,
        catalog: ModelCatalog,
        codec: TranscriptCodec,
    ) -> None:
        self._uow_factory = uow_factory
        self._store = store
        self._blobs = blobs
        self._scanner = scanner
        self._events = events
        self._ledger = ledger
        self._catalog = catalog
        self._codec = codec

    def verify(self, project: str | None = None) -> StoreVerification:
        """Every check on one project (its artifacts, usage records and the compaction events
        that name it or one of its plans) or, without `project`, on everything.
        `ProjectNotFoundError` for an unknown project."""
        with self._uow_factory() as uow:
            owner = _project(uow, project)
            artifacts = uow.artifacts.list(owner.id if owner else None, None)
            plan_ids = {plan.id for plan in uow.plans.list(owner.id)} if owner else set()
            limits = {artifact.id: _preview_limits(uow, artifact) for artifact in artifacts}
        violations = artifact_escapes(artifacts)
        unchecked: list[str] = []
        stored = [a for a in artifacts if a.status is ArtifactStatus.STORED]
        transcripts = 0
        for artifact in stored:
            violations += self._preview(artifact, *limits[artifact.id])
            found = self._transcript_violations(artifact, unchecked)
            if found is not None:
                transcripts += 1
                violations += found
        events = [
            event
            for kind in (CONTEXT_COMPACTED, CONTEXT_COMPACTION_FAILED)
            for event in self._events.recorded(kind)
            if owner is None or _names(event, owner.id, plan_ids)
        ]
        for event in events:
            violations += self._event_violations(event)
        records = self._ledger.records(project_id=owner.id if owner else None)
        for record in records:
            violations += cache_claims(
                record.usage,
                record.model,
                record.priced_at,
                self._catalog,
                f"usage record {record.id}",
            )
        return StoreVerification(
            scope="all" if owner is None else f"project {owner.name}",
            violations=ordered(violations),
            artifacts=len(artifacts),
            previews=len(stored),
            transcripts=transcripts,
            compaction_events=len(events),
            usage_records=len(records),
            unchecked=tuple(unchecked),
        )

    def _preview(self, artifact: StoredArtifact, head: int, tail: int) -> list[Violation]:
        try:
            shown = self._store.preview(artifact.id)
            found = preview_secrets(shown, self._scanner)
            found += stored_tail_violations(
                artifact, shown, self._blobs, self._scanner, head_limit=head, tail_limit=tail
            )
        except BlobMissingError:
            return [
                Violation(
                    StopCondition.MISSING_TAIL,
                    f"artifact {artifact.id}",
                    "its blob is missing: no preview, and no tail, can be shown",
                )
            ]
        return found

    def _transcript_violations(
        self, artifact: StoredArtifact, unchecked: list[str]
    ) -> list[Violation] | None:
        """The summaries of a stored transcript (None when the artifact is not one)."""
        if artifact.media_type not in TRANSCRIPT_MEDIA_TYPES:
            return None
        if artifact.byte_count > LARGEST_STORED_TRANSCRIPT:
            unchecked.append(
                f"artifact {artifact.id}: a {artifact.media_type} of {artifact.byte_count} "
                "bytes, too large to read as a transcript"
            )
            return None
        transcript = self._transcript(artifact)
        if transcript is None:
            return None
        subject = f"artifact {artifact.id}"
        messages = transcript.messages
        found = unfinished_omissions(messages, f"{subject}, ")
        for index in summary_positions(messages):
            found += text_secrets(
                messages[index].text,
                subject,
                self._scanner,
                where=f"the compaction summary in message {index}",
            )
        return found

    def _transcript(self, artifact: StoredArtifact) -> Transcript | None:
        assert artifact.sha256 is not None
        try:
            with self._blobs.open(artifact.sha256) as handle:
                text = handle.read(LARGEST_STORED_TRANSCRIPT + 1).decode("utf-8")
            return self._codec.read(text)
        except (UnicodeDecodeError, InvalidInputError, BlobMissingError):
            return None  # JSON that is no transcript (or a missing blob, reported above)

    def _event_violations(self, event: RecordedEvent) -> list[Violation]:
        subject = f"compaction event {event.id}"
        text = json.dumps(event.payload, sort_keys=True, ensure_ascii=False)
        found = text_secrets(text, subject, self._scanner, where="its recorded payload")
        if event.kind == CONTEXT_COMPACTED:
            found += recorded_omissions(event.id, event.payload)
        return found


def _project(uow: UnitOfWork, name: str | None) -> Project | None:
    if name is None:
        return None
    found = uow.projects.get_by_name(name)
    if found is None:
        raise ProjectNotFoundError(name)
    return found


def _preview_limits(uow: UnitOfWork, artifact: StoredArtifact) -> tuple[int, int]:
    """The head and tail sizes the store's preview uses: the plan's policy over the
    project's."""
    project = uow.projects.get(artifact.project_id)
    plan = uow.plans.get(artifact.plan_id) if artifact.plan_id else None
    policy = project.policy if project is not None else ContextPolicy()
    if plan is not None:
        policy = policy.overridden_by(plan.policy)
    return policy.effective_preview_head_bytes, policy.effective_preview_tail_bytes


def _names(event: RecordedEvent, project_id: str, plan_ids: set[str]) -> bool:
    return event.payload.get("project_id") == project_id or event.payload.get("plan_id") in plan_ids
