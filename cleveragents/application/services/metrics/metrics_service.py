"""Truthful metrics: each kind of token, compaction and prefix fingerprint recorded apart.

Reports, per project or plan: requests; input, output, cache-read and cache-write tokens apart;
their cost from the locked model catalog; compaction count and summary fingerprints; stable-
prefix fingerprints; artifact counts and bytes. A figure that is not known is *unavailable*, with
the reason, never 0: a provider that does not report it (OpenAI has no cache-write figure), a
model the catalog does not list, a model whose catalog entry declares no cache price (then its
cache support is unavailable, whatever the provider may offer).

Usage comes from session logs (`import_transcript`); each provider request is recorded once, so
importing a log again, or a longer version of it, adds only what is new.

The report types are in `metrics_report`, the pricing in `usage_pricing`, the scope in
`metrics_scope`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.application.ports.unit_of_work import UnitOfWorkFactory
from cleveragents.application.services.metrics.event_fingerprints import event_fingerprints
from cleveragents.application.services.metrics.metrics_report import (
    ArtifactFigures,
    MetricsReport,
    Scope,
    UsageImport,
)
from cleveragents.application.services.metrics.metrics_scope import event_filter, resolve_scope
from cleveragents.application.services.metrics.usage_normalization import transcript_usage
from cleveragents.application.services.metrics.usage_pricing import UsagePricing
from cleveragents.domain.event import CONTEXT_COMPACTED, STABLE_PREFIX_BUILT
from cleveragents.domain.stored_artifact import ArtifactStatus
from cleveragents.domain.stored_text import check_stored_text
from cleveragents.domain.transcript import TranscriptFormat
from cleveragents.domain.usage import UsageRecord

if TYPE_CHECKING:
    from cleveragents.application.ports.usage_ledger import UsageLedger


class MetricsService:
    """Usage import and the metrics report. Container name: ``metrics_service``."""

    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        ledger: UsageLedger,
        catalog: ModelCatalog,
        events: EventSink,
        codec: TranscriptCodec,
        clock: Clock,
    ) -> None:
        self._uow_factory = uow_factory
        self._ledger = ledger
        self._catalog = catalog
        self._pricing = UsagePricing(catalog)
        self._events = events
        self._codec = codec
        self._clock = clock

    def import_transcript(
        self,
        text: str,
        source: str,
        *,
        project: str | None = None,
        plan_id: str | None = None,
        transcript_format: TranscriptFormat | None = None,
    ) -> UsageImport:
        """Record the usage of every provider request in a session log (Claude Code JSONL,
        Anthropic or OpenAI JSON), each once. Into the plan's project, else `project`, else
        ``default`` (created on first use). Nothing is written when the log is malformed."""
        check_stored_text(source, "source")
        transcript_format = transcript_format or self._codec.detect(text)
        transcript = self._codec.read(text, transcript_format)
        provider = self._codec.provider(transcript_format)
        found = transcript_usage(transcript, transcript_format, provider)
        scope = resolve_scope(self._uow_factory, project, plan_id, create_default=True)
        assert scope.project is not None
        now = self._clock.now()
        records = [
            UsageRecord(
                project_id=scope.project.id,
                plan_id=scope.plan_id,
                model=request.model,
                usage=request.usage,
                request_key=request.request_key,
                message_id=request.message_id,
                request_id=request.request_id,
                requested_at=request.requested_at,
                recorded_at=now,
                source=source,
                raw_usage=request.raw_usage,
            )
            for request in found.requests
        ]
        stored = self._ledger.record(records)
        return UsageImport(
            scope=scope,
            source=source,
            transcript_format=transcript_format,
            requests=len(records),
            recorded=len(stored),
            synthetic=found.synthetic,
            catalog=self._catalog.description,
            usage=self._pricing.report(records),
        )

    def show(self, *, project: str | None = None, plan_id: str | None = None) -> MetricsReport:
        """The metrics of one plan, one project, or everything."""
        scope = resolve_scope(self._uow_factory, project, plan_id, create_default=False)
        project_id = scope.project.id if scope.project else None
        # One read: the figures and the costs come from the same records (the ledger's SQL
        # `totals` gives the same figures, but a second read could see a later import).
        records = self._ledger.records(project_id=project_id, plan_id=scope.plan_id)
        in_scope = event_filter(self._uow_factory, scope)
        return MetricsReport(
            scope=scope,
            catalog=self._catalog.description,
            usage=self._pricing.report(records),
            compaction=event_fingerprints(
                self._events, CONTEXT_COMPACTED, "summary_sha256", scope, in_scope
            ),
            stable_prefix=event_fingerprints(
                self._events, STABLE_PREFIX_BUILT, "sha256", scope, in_scope
            ),
            artifacts=self._artifacts(scope),
        )

    def _artifacts(self, scope: Scope) -> tuple[ArtifactFigures, ...]:
        with self._uow_factory() as uow:
            artifacts = uow.artifacts.list(scope.project.id if scope.project else None)
        if scope.plan_id is not None:
            artifacts = [artifact for artifact in artifacts if artifact.plan_id == scope.plan_id]
        return tuple(
            ArtifactFigures(
                status=status,
                count=sum(1 for artifact in artifacts if artifact.status is status),
                bytes=sum(a.byte_count for a in artifacts if a.status is status),
            )
            for status in ArtifactStatus
        )
