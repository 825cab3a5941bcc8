"""Truthful metrics: each kind of token, compaction and prefix fingerprint recorded apart.

Reports, per project or plan: requests; input, output, cache-read and cache-write tokens apart;
their cost from the locked model catalog; compaction count and summary fingerprints; stable-
prefix fingerprints; artifact counts and bytes. A figure that is not known is *unavailable*, with
the reason, never 0: a provider that does not report it (OpenAI has no cache-write figure), a
model the catalog does not list, a model whose catalog entry declares no cache price (then its
cache support is unavailable, whatever the provider may offer).

Usage comes from session logs (`import_transcript`); each provider request is recorded once, so
importing a log again, or a longer version of it, adds only what is new.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
from cleveragents.application.services.metrics.usage_normalization import transcript_usage
from cleveragents.application.services.plans.project_service import default_project
from cleveragents.domain.errors import InvalidInputError, PlanNotFoundError, ProjectNotFoundError
from cleveragents.domain.event import CONTEXT_COMPACTED, STABLE_PREFIX_BUILT, RecordedEvent
from cleveragents.domain.ids import parse_ulid
from cleveragents.domain.model_catalog import (
    CacheSupport,
    CatalogEntry,
    CostBreakdown,
    request_cost,
)
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import ArtifactStatus
from cleveragents.domain.stored_text import check_stored_text
from cleveragents.domain.transcript import TranscriptFormat
from cleveragents.domain.usage import (
    UNKNOWN_MODEL,
    FigureSum,
    TokenFigure,
    UsageRecord,
    UsageTotals,
)

if TYPE_CHECKING:
    from cleveragents.application.ports.usage_ledger import UsageLedger

"""The event a stable-prefix build emits, with ``{"sha256": ...}``."""
TOKEN_FIGURES = (
    "input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "total_input_tokens",
    "output_tokens",
    "reasoning_tokens",
)


@dataclass(frozen=True, slots=True)
class Scope:
    """What a report covers: everything, one project, or one plan (and its project)."""

    project: Project | None = None
    plan_id: str | None = None

    @property
    def kind(self) -> str:
        return "plan" if self.plan_id else "project" if self.project else "all"


@dataclass(frozen=True, slots=True)
class UsageSummary:
    requests: int
    tokens: dict[str, TokenFigure]  # by name, in `TOKEN_FIGURES` order
    cost: CostBreakdown


@dataclass(frozen=True, slots=True)
class ModelUsage:
    provider: str
    model: str
    catalog_model: str | None  # the catalog's id for it, None when it is not listed
    context_window: TokenFigure
    cache_support: CacheSupport
    summary: UsageSummary


@dataclass(frozen=True, slots=True)
class UsageReport:
    models: tuple[ModelUsage, ...]
    totals: UsageSummary


@dataclass(frozen=True, slots=True)
class Fingerprints:
    """Events of one kind in scope: how many, and their fingerprints (distinct, oldest
    first). `unattributed` counts events that name no project or plan, left out of a scoped
    report (None for an unscoped one, which counts them all)."""

    kind: str
    count: int
    fingerprints: tuple[str, ...]
    unattributed: int | None


@dataclass(frozen=True, slots=True)
class ArtifactFigures:
    status: ArtifactStatus
    count: int
    bytes: int


@dataclass(frozen=True, slots=True)
class MetricsReport:
    scope: Scope
    catalog: str
    usage: UsageReport
    compaction: Fingerprints
    stable_prefix: Fingerprints
    artifacts: tuple[ArtifactFigures, ...]


@dataclass(frozen=True, slots=True)
class UsageImport:
    scope: Scope
    source: str
    transcript_format: TranscriptFormat
    requests: int  # provider requests found in the transcript
    recorded: int  # of which new to the ledger
    synthetic: int  # Claude Code's own messages, not provider requests: not recorded
    catalog: str
    usage: UsageReport  # every request found, recorded now or before

    @property
    def already_recorded(self) -> int:
        return self.requests - self.recorded


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
        found = transcript_usage(self._codec.read(text, transcript_format), transcript_format)
        scope = self._scope(project, plan_id, create_default=True)
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
            usage=self._usage(records),
        )

    def show(self, *, project: str | None = None, plan_id: str | None = None) -> MetricsReport:
        """The metrics of one plan, one project, or everything."""
        scope = self._scope(project, plan_id, create_default=False)
        project_id = scope.project.id if scope.project else None
        # One read: the figures and the costs come from the same records (the ledger's SQL
        # `totals` gives the same figures, but a second read could see a later import).
        records = self._ledger.records(project_id=project_id, plan_id=scope.plan_id)
        in_scope = self._event_filter(scope)
        return MetricsReport(
            scope=scope,
            catalog=self._catalog.description,
            usage=self._usage(records),
            compaction=self._fingerprints(CONTEXT_COMPACTED, "summary_sha256", scope, in_scope),
            stable_prefix=self._fingerprints(STABLE_PREFIX_BUILT, "sha256", scope, in_scope),
            artifacts=self._artifacts(scope),
        )

    # -- scope -----------------------------------------------------------------------------------

    def _scope(self, project: str | None, plan_id: str | None, *, create_default: bool) -> Scope:
        with self._uow_factory() as uow:
            if plan_id is not None:
                return _plan_scope(uow, project, parse_ulid(plan_id, "plan id"))
            if project is None and not create_default:
                return Scope()
            if project is not None:
                found = uow.projects.get_by_name(project)
                if found is None:
                    raise ProjectNotFoundError(project)
                return Scope(project=found)
        return Scope(project=default_project(self._uow_factory))

    def _event_filter(self, scope: Scope) -> Callable[[RecordedEvent], bool | None]:
        """True when an event belongs to the scope, False when it belongs elsewhere, None when
        it names no project or plan."""
        plan_ids: set[str] = set()
        if scope.project is not None and scope.plan_id is None:
            with self._uow_factory() as uow:
                plan_ids = {plan.id for plan in uow.plans.list(scope.project.id)}

        def in_scope(event: RecordedEvent) -> bool | None:
            project_id = _text(event.payload.get("project_id"))
            plan_id = _text(event.payload.get("plan_id"))
            if scope.kind == "all":
                return True
            if project_id is None and plan_id is None:
                return None
            if scope.plan_id is not None:
                return plan_id == scope.plan_id
            assert scope.project is not None
            return project_id == scope.project.id or plan_id in plan_ids

        return in_scope

    # -- parts -----------------------------------------------------------------------------------

    def _usage(self, records: Sequence[UsageRecord]) -> UsageReport:
        by_model: dict[tuple[str, str], list[UsageRecord]] = {}
        for record in records:
            by_model.setdefault((record.provider, record.model), []).append(record)
        models = tuple(
            self._model_usage(totals, by_model[totals.provider, totals.model])
            for totals in totals_of(records)
        )
        return UsageReport(models=models, totals=_overall(models))

    def _model_usage(self, totals: UsageTotals, records: Sequence[UsageRecord]) -> ModelUsage:
        # The entry as of the model's latest request (prices change; windows rarely).
        entry = self._entry(max(records, key=lambda record: (record.priced_at, record.id)))
        unpriced = self._unpriced_reason(totals.model, entry)
        return ModelUsage(
            provider=totals.provider,
            model=totals.model,
            catalog_model=entry.model_id if entry else None,
            context_window=(
                TokenFigure.of(entry.context_window)
                if entry and entry.context_window
                else TokenFigure.missing(unpriced or "the catalog gives no context window")
            ),
            cache_support=entry.cache_support if entry else CacheSupport.UNAVAILABLE,
            summary=UsageSummary(
                requests=totals.requests,
                tokens=_token_figures(totals, entry, unpriced),
                cost=_sum_costs(self._request_cost(record) for record in records),
            ),
        )

    def _entry(self, record: UsageRecord) -> CatalogEntry | None:
        """The entry with the prices in force when the request was served."""
        if record.model == UNKNOWN_MODEL:
            return None
        return self._catalog.entry(
            record.model, record.provider, record.priced_at, record.usage.service_tier
        )

    def _request_cost(self, record: UsageRecord) -> CostBreakdown:
        entry = self._entry(record)
        if entry is None:
            reason = self._unpriced_reason(record.model, entry)
            assert reason is not None
            return CostBreakdown.unavailable(reason)
        return request_cost(record.usage, entry)

    def _unpriced_reason(self, model: str, entry: CatalogEntry | None) -> str | None:
        if model == UNKNOWN_MODEL:
            return "the source does not name the model"
        if entry is None:
            return f"model {model!r} is not in the locked catalog ({self._catalog.description})"
        return None

    def _fingerprints(
        self,
        kind: str,
        key: str,
        scope: Scope,
        in_scope: Callable[[RecordedEvent], bool | None],
    ) -> Fingerprints:
        events = self._events.recorded(kind)
        verdicts = [(event, in_scope(event)) for event in events]
        chosen = [event for event, verdict in verdicts if verdict]
        seen: dict[str, None] = {}
        for event in chosen:
            value = event.payload.get(key)
            if isinstance(value, str) and value:
                seen.setdefault(value, None)
        unattributed = sum(1 for _, verdict in verdicts if verdict is None)
        return Fingerprints(
            kind=kind,
            count=len(chosen),
            fingerprints=tuple(seen),
            unattributed=None if scope.kind == "all" else unattributed,
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


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _plan_scope(uow: UnitOfWork, project: str | None, plan_id: str) -> Scope:
    plan = uow.plans.get(plan_id)
    if plan is None:
        raise PlanNotFoundError(plan_id)
    owner = uow.projects.get(plan.project_id)
    assert owner is not None
    if project is not None and owner.name != project:
        raise InvalidInputError(
            f"plan {plan_id} belongs to project {owner.name!r}, not {project!r}"
        )
    return Scope(project=owner, plan_id=plan_id)


def totals_of(records: Iterable[UsageRecord]) -> list[UsageTotals]:
    """What `UsageLedger.totals` gives for these records, computed in memory."""
    groups: dict[tuple[str, str], list[UsageRecord]] = {}
    for record in records:
        groups.setdefault((record.provider, record.model), []).append(record)

    def figure(group: list[UsageRecord], name: str) -> FigureSum:
        values = [getattr(record.usage, name) for record in group]
        known = [value for value in values if value is not None]
        return FigureSum(total=sum(known), reported=len(known))

    return [
        UsageTotals(
            provider=provider,
            model=model,
            requests=len(group),
            input_tokens=figure(group, "input_tokens"),
            total_input_tokens=figure(group, "total_input_tokens"),
            cache_read_tokens=figure(group, "cache_read_tokens"),
            cache_write_tokens=figure(group, "cache_write_tokens"),
            output_tokens=sum(record.usage.output_tokens for record in group),
            reasoning_tokens=figure(group, "reasoning_tokens"),
        )
        for (provider, model), group in sorted(groups.items())
    ]


def _token_figures(
    totals: UsageTotals, entry: CatalogEntry | None, unpriced: str | None
) -> dict[str, TokenFigure]:
    figures: dict[str, TokenFigure] = {}
    for name in TOKEN_FIGURES:
        if name == "output_tokens":
            figures[name] = TokenFigure.of(totals.output_tokens)
            continue
        summed: FigureSum = getattr(totals, name)
        cache_price = {"cache_read_tokens": "cache-read", "cache_write_tokens": "cache-write"}
        if name in cache_price:
            # Cache figures only where the catalog prices that cache: never inferred.
            if unpriced is not None:
                figures[name] = TokenFigure.missing(f"{unpriced}: cache support unavailable")
                continue
            assert entry is not None
            price = getattr(entry.pricing, name.removesuffix("_tokens"))
            if price is None:
                figures[name] = TokenFigure.missing(
                    f"the locked catalog declares no {cache_price[name]} price for "
                    f"{entry.model_id}: cache support unavailable"
                )
                continue
        if summed.reported < totals.requests:
            figures[name] = TokenFigure.missing(
                f"not reported by {totals.requests - summed.reported} of {totals.requests} requests"
            )
        else:
            figures[name] = TokenFigure.of(summed.total)
    return figures


def _sum_costs(costs: Iterable[CostBreakdown]) -> CostBreakdown:
    """The sum; no request at all costs a true 0."""
    total: CostBreakdown | None = None
    for cost in costs:
        total = cost if total is None else total.plus(cost)
    return total or CostBreakdown.zero()


def _overall(models: Sequence[ModelUsage]) -> UsageSummary:
    tokens: dict[str, TokenFigure] = {}
    for name in TOKEN_FIGURES:
        figures = [(model, model.summary.tokens[name]) for model in models]
        missing = [(model, figure) for model, figure in figures if figure.value is None]
        if missing:
            model, figure = missing[0]
            reason = f"{model.model}: {figure.unavailable}"
            tokens[name] = TokenFigure.missing(reason)
        else:
            tokens[name] = TokenFigure.of(sum(figure.value or 0 for _, figure in figures))
    return UsageSummary(
        requests=sum(model.summary.requests for model in models),
        tokens=tokens,
        cost=_sum_costs(model.summary.cost for model in models),
    )
