"""How each piece of the application is built: one function per provider of the container.

Each imports its class when first called, so a command loads only the adapters and services it
uses; `wiring` says which piece is given which others. Nothing here imports dependency_injector.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cleveragents.adapters.files.private_directories import make_private_directory
from cleveragents.adapters.persistence.locations import (
    explicit_database_url,
    home_database_url,
    resolve_database_url,
)

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from cleveragents.adapters.budget_weights.toml_weights import TomlBudgetWeights
    from cleveragents.adapters.input_files.bounded_text_files import BoundedTextFiles
    from cleveragents.adapters.model_catalog.genai_prices_catalog import GenaiPricesCatalog
    from cleveragents.adapters.persistence.event_log import SqlEventLog
    from cleveragents.adapters.persistence.store import SqlStore
    from cleveragents.adapters.persistence.unit_of_work import SqlaUnitOfWork
    from cleveragents.adapters.persistence.usage_repository import SqlUsageLedger
    from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader
    from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
    from cleveragents.adapters.system.clock import SystemClock
    from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
    from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec
    from cleveragents.adapters.workspace.contained_files import FdContainedFiles
    from cleveragents.application.ports.blob_storage import BlobStorage
    from cleveragents.application.ports.clock import Clock
    from cleveragents.application.ports.secret_scanner import SecretScanner
    from cleveragents.application.ports.token_counter import TokenCounter
    from cleveragents.application.services.artifact_compression.artifact_compressor import (
        ArtifactCompressorService,
    )
    from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
    from cleveragents.application.services.budget.budget_planning import BudgetPlanning
    from cleveragents.application.services.compaction.context_compactor import ContextCompactor
    from cleveragents.application.services.compaction.strategy_comparison import (
        DiscardedEvents,
        StrategyComparison,
    )
    from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
        DeterministicSummarizer,
    )
    from cleveragents.application.services.compaction.tool_output_shrinking import (
        ToolOutputShrinker,
    )
    from cleveragents.application.services.compaction.transcript_compaction import (
        TranscriptCompactor,
    )
    from cleveragents.application.services.delivery_gates import DeliveryGate, StoreVerifier
    from cleveragents.application.services.demo_tour import DemoTour
    from cleveragents.application.services.metrics.metrics_service import MetricsService
    from cleveragents.application.services.plans.child_plans import ChildPlanSpawner
    from cleveragents.application.services.plans.plan_service import PlanService
    from cleveragents.application.services.plans.skeleton_compressor import (
        SkeletonCompressorService,
    )
    from cleveragents.application.services.prefixes.stable_prefix_builder import StablePrefixBuilder
    from cleveragents.application.services.projects.project_service import ProjectService


# Adapters. Each function imports its adapter when the provider is first called.


def sql_store(
    database_url: str | None, home: Path, create_home: bool, auto_migrate: bool
) -> Iterator[SqlStore]:
    # A resource, not a singleton: closing the container disposes the engine only if a command
    # opened one (`shutdown_resources` skips resources never initialised).
    from cleveragents.adapters.persistence.store import SqlStore

    if create_home and explicit_database_url(database_url) is None:
        # A home the caller named, and the store is its file: made (private) if it is new. The
        # default home is made by the engine, on the first write (`agents db current` on a
        # fresh home creates nothing); a database named explicitly is the user's to place.
        make_private_directory(home)
    store = SqlStore(url=resolve_database_url(database_url, home), auto_migrate=auto_migrate)
    yield store
    store.dispose()


def unit_of_work(session_factory: sessionmaker[Session]) -> SqlaUnitOfWork:
    from cleveragents.adapters.persistence.unit_of_work import SqlaUnitOfWork

    return SqlaUnitOfWork(session_factory=session_factory)


def token_counter(encoding_name: str, cache_dir: Path) -> TiktokenCounter:
    from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter

    return TiktokenCounter(encoding_name=encoding_name, cache_dir=cache_dir)


def token_counters(default: TokenCounter, cache_dir: Path) -> Callable[[str | None], TokenCounter]:
    """The tokenizer of an encoding: `default` (the configured one) for None or its own
    encoding, else a counter of its own (built cheaply; the vocabulary loads on first count)."""

    def counter_for(encoding: str | None) -> TokenCounter:
        if encoding is None or encoding == default.encoding_name:
            return default
        return token_counter(encoding, cache_dir)

    return counter_for


def budget_weights() -> TomlBudgetWeights:
    from cleveragents.adapters.budget_weights.toml_weights import TomlBudgetWeights

    return TomlBudgetWeights()


def text_files() -> BoundedTextFiles:
    from cleveragents.adapters.input_files.bounded_text_files import BoundedTextFiles

    return BoundedTextFiles()


def source_skeletonizer() -> TreeSitterSkeletonizer:
    from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer

    return TreeSitterSkeletonizer()


def blob_storage(home: Path, database_url: str | None, store: SqlStore) -> BlobStorage:
    # The database records where its blobs live (or the configuration says): the folder
    # derived here is only the default, and the local folder for staging and temporary outputs.
    from cleveragents.adapters.blobs.blob_store_configuration import configured_blob_storage

    return configured_blob_storage(store, artifacts_dir(home, database_url))


def blob_grace_seconds() -> float:
    from cleveragents.adapters.blobs.blob_store_locations import blob_grace_seconds

    return blob_grace_seconds()


def contained_files() -> FdContainedFiles:
    from cleveragents.adapters.workspace.contained_files import FdContainedFiles

    return FdContainedFiles()


def secret_scanner(name: str) -> SecretScanner:
    from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner

    return make_secret_scanner(name=name)


def clock() -> SystemClock:
    from cleveragents.adapters.system.clock import SystemClock

    return SystemClock()


def user() -> str:
    from cleveragents.adapters.system.clock import current_user

    return current_user()


def event_sink(session_factory: sessionmaker[Session], clock: Clock) -> SqlEventLog:
    from cleveragents.adapters.persistence.event_log import SqlEventLog

    return SqlEventLog(session_factory=session_factory, clock=clock)


def discarded_events() -> DiscardedEvents:
    from cleveragents.application.services.compaction.strategy_comparison import DiscardedEvents

    return DiscardedEvents()


def transcript_codec() -> JsonTranscriptCodec:
    from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec

    return JsonTranscriptCodec()


def usage_ledger(session_factory: sessionmaker[Session]) -> SqlUsageLedger:
    from cleveragents.adapters.persistence.usage_repository import SqlUsageLedger

    return SqlUsageLedger(session_factory=session_factory)


def model_catalog() -> GenaiPricesCatalog:
    from cleveragents.adapters.model_catalog.genai_prices_catalog import GenaiPricesCatalog

    return GenaiPricesCatalog()


def prefix_spec_reader() -> PrefixFileReader:
    from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader

    return PrefixFileReader()


# Services. The same lazy imports: a command that uses no service loads none. Each takes the
# keyword arguments its service's constructor takes.


def skeleton_compressor_service() -> SkeletonCompressorService:
    from cleveragents.application.services.plans.skeleton_compressor import (
        SkeletonCompressorService,
    )

    return SkeletonCompressorService()


def project_service(**dependencies: Any) -> ProjectService:
    from cleveragents.application.services.projects.project_service import ProjectService

    return ProjectService(**dependencies)


def plan_service(**dependencies: Any) -> PlanService:
    from cleveragents.application.services.plans.plan_service import PlanService

    return PlanService(**dependencies)


def child_plan_spawner(**dependencies: Any) -> ChildPlanSpawner:
    from cleveragents.application.services.plans.child_plans import ChildPlanSpawner

    return ChildPlanSpawner(**dependencies)


def artifact_store(**dependencies: Any) -> ArtifactStore:
    from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore

    return ArtifactStore(**dependencies)


def artifact_compressor_service(**dependencies: Any) -> ArtifactCompressorService:
    from cleveragents.application.services.artifact_compression.artifact_compressor import (
        ArtifactCompressorService,
    )

    return ArtifactCompressorService(**dependencies)


def summarizer() -> DeterministicSummarizer:
    from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
        DeterministicSummarizer,
    )

    return DeterministicSummarizer()


def stable_prefix_builder(**dependencies: Any) -> StablePrefixBuilder:
    from cleveragents.application.services.prefixes.stable_prefix_builder import StablePrefixBuilder

    return StablePrefixBuilder(**dependencies)


def budget_planning(**dependencies: Any) -> BudgetPlanning:
    from cleveragents.application.services.budget.budget_planning import BudgetPlanning

    return BudgetPlanning(**dependencies)


def tool_output_shrinker(**dependencies: Any) -> ToolOutputShrinker:
    from cleveragents.application.services.compaction.tool_output_shrinking import (
        ToolOutputShrinker,
    )

    return ToolOutputShrinker(**dependencies)


def context_compactor(**dependencies: Any) -> ContextCompactor:
    from cleveragents.application.services.compaction.context_compactor import ContextCompactor

    return ContextCompactor(**dependencies)


def transcript_compactor(**dependencies: Any) -> TranscriptCompactor:
    from cleveragents.application.services.compaction.transcript_compaction import (
        TranscriptCompactor,
    )

    return TranscriptCompactor(**dependencies)


def strategy_comparison(**dependencies: Any) -> StrategyComparison:
    from cleveragents.application.services.compaction.strategy_comparison import StrategyComparison

    return StrategyComparison(**dependencies)


def metrics_service(**dependencies: Any) -> MetricsService:
    from cleveragents.application.services.metrics.metrics_service import MetricsService

    return MetricsService(**dependencies)


def demo_tour(**dependencies: Any) -> DemoTour:
    from cleveragents.application.services.demo_tour import DemoTour

    return DemoTour(**dependencies)


def store_verifier(**dependencies: Any) -> StoreVerifier:
    from cleveragents.application.services.delivery_gates import StoreVerifier

    return StoreVerifier(**dependencies)


def delivery_gate(**dependencies: Any) -> DeliveryGate:
    from cleveragents.application.services.delivery_gates import DeliveryGate

    return DeliveryGate(**dependencies)


def artifacts_dir(home: Path, database_url: str | None) -> Path:
    """The blob folder derived from the resolved database URL (``--db``, else the
    environment's): the default a database records when its blob store is first opened, and
    the local folder for staging files and temporary outputs. Blobs are kept or deleted by the
    rows of one database, so a database other than the home's own gets its own folder: a
    cleanup run against one database must never delete blobs that another database's rows
    still refer to. The same URL gives the same folder however it was given."""
    resolved = resolve_database_url(database_url, home)
    if resolved == home_database_url(home):
        return home / "artifacts"
    digest = hashlib.sha256(resolved.encode()).hexdigest()[:16]
    return home / "artifacts" / "databases" / digest
