"""The composition root: the one place that knows every concrete class.

Containers per concern (adapters, services) composed into `Container`. Nothing here runs at
import, and nothing heavy is imported: each provider is built by a small factory function that
imports its class on first use, so a command loads only the adapters it uses (`agents tokens
count` loads neither SQLAlchemy nor tree-sitter nor the secret scanner). The engine, the
tokenizer and the schema check happen on first use too. Tests override providers with fakes
(``with container.token_counter.override(fake): ...``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dependency_injector import containers, providers

from cleveragents.adapters.files.private_directories import make_private_directory
from cleveragents.adapters.persistence.locations import (
    default_home,
    explicit_database_url,
    resolve_database_url,
)
from cleveragents.adapters.tokens.offline_encodings import DEFAULT_ENCODING

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from cleveragents.adapters.blobs.filesystem_blob_storage import FilesystemBlobStorage
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
    from cleveragents.application.ports.clock import Clock
    from cleveragents.application.ports.secret_scanner import SecretScanner
    from cleveragents.application.services.artifact_compressor import ArtifactCompressorService
    from cleveragents.application.services.artifact_store import ArtifactStore
    from cleveragents.application.services.compaction.deterministic_summarizer import (
        DeterministicSummarizer,
    )
    from cleveragents.application.services.compaction.tool_output_shrinking import (
        ToolOutputShrinker,
    )
    from cleveragents.application.services.context_budget_planner import ContextBudgetPlanner
    from cleveragents.application.services.context_compactor import ContextCompactor
    from cleveragents.application.services.context_strategies import StrategyComparison
    from cleveragents.application.services.metrics import MetricsService
    from cleveragents.application.services.plans import PlanService
    from cleveragents.application.services.projects import ProjectService
    from cleveragents.application.services.skeleton_compressor import SkeletonCompressorService
    from cleveragents.application.services.stable_prefix_builder import StablePrefixBuilder
    from cleveragents.application.services.strategy_coordinator import StrategyCoordinator


# Adapters. Each function imports its adapter when the provider is first called.


def _sql_store(database_url: str | None, home: Path, auto_migrate: bool) -> Iterator[SqlStore]:
    # A resource, not a singleton: closing the container disposes the engine only if a command
    # opened one (`shutdown_resources` skips resources never initialised).
    from cleveragents.adapters.persistence.store import SqlStore

    if explicit_database_url(database_url) is None:
        # The store is the home's: the home is made (private) if it is new, whichever home it
        # is. A database named explicitly is the user's to place; its directory must exist.
        make_private_directory(home)
    store = SqlStore(url=resolve_database_url(database_url, home), auto_migrate=auto_migrate)
    yield store
    store.dispose()


def _unit_of_work(session_factory: sessionmaker[Session]) -> SqlaUnitOfWork:
    from cleveragents.adapters.persistence.unit_of_work import SqlaUnitOfWork

    return SqlaUnitOfWork(session_factory=session_factory)


def _token_counter(encoding_name: str, cache_dir: Path) -> TiktokenCounter:
    from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter

    return TiktokenCounter(encoding_name=encoding_name, cache_dir=cache_dir)


def _source_skeletonizer() -> TreeSitterSkeletonizer:
    from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer

    return TreeSitterSkeletonizer()


def _blob_storage(home: Path, database_url: str | None) -> FilesystemBlobStorage:
    from cleveragents.adapters.blobs.filesystem_blob_storage import FilesystemBlobStorage

    return FilesystemBlobStorage(root=artifacts_dir(home, database_url))


def _contained_files() -> FdContainedFiles:
    from cleveragents.adapters.workspace.contained_files import FdContainedFiles

    return FdContainedFiles()


def _secret_scanner(name: str) -> SecretScanner:
    from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner

    return make_secret_scanner(name=name)


def _clock() -> SystemClock:
    from cleveragents.adapters.system.clock import SystemClock

    return SystemClock()


def _user() -> str:
    from cleveragents.adapters.system.clock import current_user

    return current_user()


def _event_sink(session_factory: sessionmaker[Session], clock: Clock) -> SqlEventLog:
    from cleveragents.adapters.persistence.event_log import SqlEventLog

    return SqlEventLog(session_factory=session_factory, clock=clock)


def _transcript_codec() -> JsonTranscriptCodec:
    from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec

    return JsonTranscriptCodec()


def _usage_ledger(session_factory: sessionmaker[Session]) -> SqlUsageLedger:
    from cleveragents.adapters.persistence.usage_repository import SqlUsageLedger

    return SqlUsageLedger(session_factory=session_factory)


def _model_catalog() -> GenaiPricesCatalog:
    from cleveragents.adapters.model_catalog.genai_prices_catalog import GenaiPricesCatalog

    return GenaiPricesCatalog()


def _prefix_spec_reader() -> PrefixFileReader:
    from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader

    return PrefixFileReader()


class AdaptersContainer(containers.DeclarativeContainer):
    config = providers.Configuration()

    store = providers.Resource(
        _sql_store,
        database_url=config.database_url,
        home=config.home,
        auto_migrate=config.auto_migrate,
    )
    unit_of_work = providers.Factory(_unit_of_work, session_factory=store.provided.sessions)
    token_counter = providers.Singleton(
        _token_counter, encoding_name=config.encoding, cache_dir=config.tokenizer_cache_dir
    )
    source_skeletonizer = providers.Singleton(_source_skeletonizer)
    blob_storage = providers.Singleton(
        _blob_storage, home=config.home, database_url=config.database_url
    )
    contained_files = providers.Singleton(_contained_files)
    secret_scanner = providers.Singleton(_secret_scanner, name=config.secret_scanner)
    clock = providers.Singleton(_clock)
    user = providers.Callable(_user)
    event_sink = providers.Singleton(
        _event_sink, session_factory=store.provided.sessions, clock=clock
    )
    transcript_codec = providers.Singleton(_transcript_codec)
    usage_ledger = providers.Singleton(_usage_ledger, session_factory=store.provided.sessions)
    model_catalog = providers.Singleton(_model_catalog)
    prefix_spec_reader = providers.Singleton(_prefix_spec_reader)


# Services. The same lazy imports: a command that uses no service loads none. Each takes the
# keyword arguments its service's constructor takes.


def _skeleton_compressor_service() -> SkeletonCompressorService:
    from cleveragents.application.services.skeleton_compressor import SkeletonCompressorService

    return SkeletonCompressorService()


def _project_service(**dependencies: Any) -> ProjectService:
    from cleveragents.application.services.projects import ProjectService

    return ProjectService(**dependencies)


def _plan_service(**dependencies: Any) -> PlanService:
    from cleveragents.application.services.plans import PlanService

    return PlanService(**dependencies)


def _strategy_coordinator(**dependencies: Any) -> StrategyCoordinator:
    from cleveragents.application.services.strategy_coordinator import StrategyCoordinator

    return StrategyCoordinator(**dependencies)


def _artifact_store(**dependencies: Any) -> ArtifactStore:
    from cleveragents.application.services.artifact_store import ArtifactStore

    return ArtifactStore(**dependencies)


def _artifact_compressor_service(**dependencies: Any) -> ArtifactCompressorService:
    from cleveragents.application.services.artifact_compressor import ArtifactCompressorService

    return ArtifactCompressorService(**dependencies)


def _summarizer() -> DeterministicSummarizer:
    from cleveragents.application.services.compaction.deterministic_summarizer import (
        DeterministicSummarizer,
    )

    return DeterministicSummarizer()


def _stable_prefix_builder(**dependencies: Any) -> StablePrefixBuilder:
    from cleveragents.application.services.stable_prefix_builder import StablePrefixBuilder

    return StablePrefixBuilder(**dependencies)


def _context_budget_planner(**dependencies: Any) -> ContextBudgetPlanner:
    from cleveragents.application.services.context_budget_planner import ContextBudgetPlanner

    return ContextBudgetPlanner(**dependencies)


def _tool_output_shrinker(**dependencies: Any) -> ToolOutputShrinker:
    from cleveragents.application.services.compaction.tool_output_shrinking import (
        ToolOutputShrinker,
    )

    return ToolOutputShrinker(**dependencies)


def _context_compactor(**dependencies: Any) -> ContextCompactor:
    from cleveragents.application.services.context_compactor import ContextCompactor

    return ContextCompactor(**dependencies)


def _strategy_comparison(**dependencies: Any) -> StrategyComparison:
    from cleveragents.application.services.context_strategies import StrategyComparison

    return StrategyComparison(**dependencies)


def _metrics_service(**dependencies: Any) -> MetricsService:
    from cleveragents.application.services.metrics import MetricsService

    return MetricsService(**dependencies)


class ServicesContainer(containers.DeclarativeContainer):
    adapters = providers.DependenciesContainer()

    skeleton_compressor_service = providers.Singleton(_skeleton_compressor_service)
    project_service = providers.Factory(
        _project_service, uow_factory=adapters.unit_of_work.provider
    )
    plan_service = providers.Factory(
        _plan_service,
        uow_factory=adapters.unit_of_work.provider,
        token_counter=adapters.token_counter,
    )
    strategy_coordinator = providers.Factory(
        _strategy_coordinator,
        uow_factory=adapters.unit_of_work.provider,
        compressor=skeleton_compressor_service,
    )
    artifact_store = providers.Singleton(
        _artifact_store,
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
        _artifact_compressor_service,
        files=adapters.contained_files,
        token_counter=adapters.token_counter,
        skeletonizer=adapters.source_skeletonizer,
        scanner=adapters.secret_scanner,
        store=artifact_store.provider,
    )
    summarizer = providers.Singleton(_summarizer)
    stable_prefix_builder = providers.Factory(
        _stable_prefix_builder, secret_scanner=adapters.secret_scanner
    )
    context_budget_planner = providers.Factory(
        _context_budget_planner, token_counter=adapters.token_counter
    )
    tool_output_shrinker = providers.Factory(
        _tool_output_shrinker,
        compressor=artifact_compressor_service,
        counter=adapters.token_counter,
        scanner=adapters.secret_scanner,
        store=artifact_store,
    )
    context_compactor = providers.Factory(
        _context_compactor,
        token_counter=adapters.token_counter,
        summarizer=summarizer,
        events=adapters.event_sink,
        secret_scanner=adapters.secret_scanner,
        shrinker=tool_output_shrinker,
    )
    strategy_comparison = providers.Factory(
        _strategy_comparison,
        token_counter=adapters.token_counter,
        summarizer=summarizer,
        secret_scanner=adapters.secret_scanner,
    )
    metrics_service = providers.Factory(
        _metrics_service,
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
    """A container configured from arguments, then the environment, then defaults.

    The database URL is resolved (``--db``, else ``$CLEVERAGENTS_DATABASE_URL``, else the file
    under the home) when the store or the blob storage is first used. The home (`home`, else
    ``$CLEVERAGENTS_HOME``, else ``~/.cleveragents``) is created then, 0700, if the store is its
    file; the directory of a database named explicitly is never created.
    """
    resolved_home = home or default_home()
    container = Container()
    container.config.from_dict(
        {
            "database_url": database_url,
            "home": resolved_home,
            "auto_migrate": auto_migrate,
            "encoding": encoding,
            "tokenizer_cache_dir": resolved_home / "cache" / "tiktoken",
            "secret_scanner": os.environ.get("CLEVERAGENTS_SECRET_SCANNER", "builtin"),
        }
    )
    return container
