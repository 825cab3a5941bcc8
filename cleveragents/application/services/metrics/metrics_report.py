"""What the metrics service reports: value types, each figure a value or the reason it is not
known (`TokenFigure`, `CostFigure`), never a 0 standing in for "unknown"."""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.domain.model_catalog import CacheSupport, CostBreakdown
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import ArtifactStatus
from cleveragents.domain.transcript import TranscriptFormat
from cleveragents.domain.usage import TokenFigure

TOKEN_FIGURES = (
    "input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "total_input_tokens",
    "output_tokens",
    "reasoning_tokens",
)
"""The token figures of a summary, in the order reports show them."""


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
