"""The composition root: the one place that knows every concrete class.

Containers per concern (adapters, services) composed into `Container`. Nothing here runs at
import: the engine, the tokenizer and the schema check happen on first use. Tests override
providers with fakes (``with container.token_counter.override(fake): ...``).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from dependency_injector import containers, providers

from cleveragents.adapters.blobs.filesystem_blob_storage import FilesystemBlobStorage
from cleveragents.adapters.model_catalog.genai_prices_catalog import GenaiPricesCatalog
from cleveragents.adapters.persistence.database import default_home, resolve_database_url
from cleveragents.adapters.persistence.event_log import SqlEventLog
from cleveragents.adapters.persistence.store import SqlStore
from cleveragents.adapters.persistence.unit_of_work import SqlaUnitOfWork
from cleveragents.adapters.persistence.usage_repository import SqlUsageLedger
from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader
from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.system.clock import SystemClock, current_user
from cleveragents.adapters.tokens.offline_encodings import DEFAULT_ENCODING
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compressor import ArtifactCompressorService
from cleveragents.application.services.artifact_store import ArtifactStore
from cleveragents.application.services.compaction.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.application.services.compaction.tool_output_shrinking import ToolOutputShrinker
from cleveragents.application.services.context_budget_planner import ContextBudgetPlanner
from cleveragents.application.services.context_compactor import ContextCompactor
from cleveragents.application.services.context_strategies import StrategyComparison
from cleveragents.application.services.metrics import MetricsService
from cleveragents.application.services.plans import PlanService
from cleveragents.application.services.projects import ProjectService
from cleveragents.application.services.skeleton_compressor import SkeletonCompressorService
from cleveragents.application.services.stable_prefix_builder import StablePrefixBuilder
from cleveragents.application.services.strategy_coordinator import StrategyCoordinator


class AdaptersContainer(containers.DeclarativeContainer):
    config = providers.Configuration()

    store = providers.Singleton(SqlStore, url=config.database_url, auto_migrate=config.auto_migrate)
    unit_of_work = providers.Factory(SqlaUnitOfWork, session_factory=store.provided.sessions)
    token_counter = providers.Singleton(
        TiktokenCounter, encoding_name=config.encoding, cache_dir=config.tokenizer_cache_dir
    )
    source_skeletonizer = providers.Singleton(TreeSitterSkeletonizer)
    blob_storage = providers.Singleton(FilesystemBlobStorage, root=config.artifacts_dir)
    contained_files = providers.Singleton(FdContainedFiles)
    secret_scanner = providers.Singleton(make_secret_scanner, name=config.secret_scanner)
    clock = providers.Singleton(SystemClock)
    user = providers.Callable(current_user)
    event_sink = providers.Singleton(
        SqlEventLog, session_factory=store.provided.sessions, clock=clock
    )
    transcript_codec = providers.Singleton(JsonTranscriptCodec)
    usage_ledger = providers.Singleton(SqlUsageLedger, session_factory=store.provided.sessions)
    model_catalog = providers.Singleton(GenaiPricesCatalog)
    prefix_spec_reader = providers.Singleton(PrefixFileReader)


class ServicesContainer(containers.DeclarativeContainer):
    adapters = providers.DependenciesContainer()

    skeleton_compressor_service = providers.Singleton(SkeletonCompressorService)
    project_service = providers.Factory(ProjectService, uow_factory=adapters.unit_of_work.provider)
    plan_service = providers.Factory(
        PlanService,
        uow_factory=adapters.unit_of_work.provider,
        token_counter=adapters.token_counter,
    )
    strategy_coordinator = providers.Factory(
        StrategyCoordinator,
        uow_factory=adapters.unit_of_work.provider,
        compressor=skeleton_compressor_service,
    )
    artifact_store = providers.Singleton(
        ArtifactStore,
        uow_factory=adapters.unit_of_work.provider,
        blobs=adapters.blob_storage,
        files=adapters.contained_files,
        scanner=adapters.secret_scanner,
        clock=adapters.clock,
        user=adapters.user,
    )
    # The store goes in as its provider, called only when a compression stores or reads a
    # stored artifact: compressing a plain file opens no database.
    artifact_compressor_service = providers.Factory(
        ArtifactCompressorService,
        files=adapters.contained_files,
        token_counter=adapters.token_counter,
        skeletonizer=adapters.source_skeletonizer,
        scanner=adapters.secret_scanner,
        store=artifact_store.provider,
    )
    summarizer = providers.Singleton(DeterministicSummarizer)
    stable_prefix_builder = providers.Factory(
        StablePrefixBuilder, secret_scanner=adapters.secret_scanner
    )
    context_budget_planner = providers.Factory(
        ContextBudgetPlanner, token_counter=adapters.token_counter
    )
    tool_output_shrinker = providers.Factory(
        ToolOutputShrinker,
        compressor=artifact_compressor_service,
        counter=adapters.token_counter,
        scanner=adapters.secret_scanner,
        store=artifact_store,
    )
    context_compactor = providers.Factory(
        ContextCompactor,
        token_counter=adapters.token_counter,
        summarizer=summarizer,
        events=adapters.event_sink,
        secret_scanner=adapters.secret_scanner,
        shrinker=tool_output_shrinker,
    )
    strategy_comparison = providers.Factory(
        StrategyComparison,
        token_counter=adapters.token_counter,
        summarizer=summarizer,
        secret_scanner=adapters.secret_scanner,
    )
    metrics_service = providers.Factory(
        MetricsService,
        uow_factory=adapters.unit_of_work.provider,
        ledger=adapters.usage_ledger,
        catalog=adapters.model_catalog,
        events=adapters.event_sink,
        codec=adapters.transcript_codec,
        clock=adapters.clock,
    )


class Container(containers.DeclarativeContainer):
    config = providers.Configuration()

    adapters = providers.Container(AdaptersContainer, config=config)
    services = providers.Container(ServicesContainer, adapters=adapters)

    # The names the product documents, at the top level.
    store = adapters.store
    unit_of_work = adapters.unit_of_work
    token_counter = adapters.token_counter
    skeleton_compressor_service = services.skeleton_compressor_service
    project_service = services.project_service
    plan_service = services.plan_service
    strategy_coordinator = services.strategy_coordinator
    source_skeletonizer = adapters.source_skeletonizer
    artifact_compressor_service = services.artifact_compressor_service
    blob_storage = adapters.blob_storage
    contained_files = adapters.contained_files
    secret_scanner = adapters.secret_scanner
    clock = adapters.clock
    artifact_store = services.artifact_store
    event_sink = adapters.event_sink
    transcript_codec = adapters.transcript_codec
    summarizer = services.summarizer
    context_compactor = services.context_compactor
    strategy_comparison = services.strategy_comparison
    usage_ledger = adapters.usage_ledger
    model_catalog = adapters.model_catalog
    metrics_service = services.metrics_service
    prefix_spec_reader = adapters.prefix_spec_reader
    stable_prefix_builder = services.stable_prefix_builder
    context_budget_planner = services.context_budget_planner


def artifacts_dir(home: Path, database_url: str | None) -> Path:
    """Where blobs live. Blobs are kept or deleted by the rows of one database, so a database
    other than the default one gets its own folder: a cleanup run against one database must
    never delete blobs that another database's rows still refer to."""
    resolved = resolve_database_url(database_url, home)
    if resolved == resolve_database_url(None, home):
        return home / "artifacts"
    digest = hashlib.sha256(resolved.encode()).hexdigest()[:16]
    return home / "artifacts" / "databases" / digest


def build_container(
    database_url: str | None = None,
    *,
    home: Path | None = None,
    encoding: str = DEFAULT_ENCODING,
    auto_migrate: bool = True,
) -> Container:
    """A container configured from arguments, then the environment, then defaults."""
    resolved_home = home or default_home()
    container = Container()
    container.config.from_dict(
        {
            "database_url": resolve_database_url(database_url, resolved_home),
            "auto_migrate": auto_migrate,
            "encoding": encoding,
            "tokenizer_cache_dir": resolved_home / "cache" / "tiktoken",
            "artifacts_dir": artifacts_dir(resolved_home, database_url),
            "secret_scanner": os.environ.get("CLEVERAGENTS_SECRET_SCANNER", "builtin"),
        }
    )
    return container
