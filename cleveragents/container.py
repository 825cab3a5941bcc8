"""The composition root: the one place that knows every concrete class.

Containers per concern (adapters, services) composed into `Container`. Nothing here runs at
import: the engine, the tokenizer and the schema check happen on first use. Tests override
providers with fakes (``with container.token_counter.override(fake): ...``).
"""

from __future__ import annotations

from pathlib import Path

from dependency_injector import containers, providers

from cleveragents.adapters.persistence.database import default_home, resolve_database_url
from cleveragents.adapters.persistence.store import SqlStore
from cleveragents.adapters.persistence.unit_of_work import SqlaUnitOfWork
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.offline_encodings import DEFAULT_ENCODING
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.local_artifact_files import LocalArtifactFiles
from cleveragents.application.services.artifact_compressor import ArtifactCompressorService
from cleveragents.application.services.plans import PlanService
from cleveragents.application.services.projects import ProjectService
from cleveragents.application.services.skeleton_compressor import SkeletonCompressorService
from cleveragents.application.services.strategy_coordinator import StrategyCoordinator


class AdaptersContainer(containers.DeclarativeContainer):
    config = providers.Configuration()

    store = providers.Singleton(SqlStore, url=config.database_url, auto_migrate=config.auto_migrate)
    unit_of_work = providers.Factory(SqlaUnitOfWork, session_factory=store.provided.sessions)
    token_counter = providers.Singleton(
        TiktokenCounter, encoding_name=config.encoding, cache_dir=config.tokenizer_cache_dir
    )
    artifact_files = providers.Singleton(LocalArtifactFiles)
    source_skeletonizer = providers.Singleton(TreeSitterSkeletonizer)


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
    artifact_compressor_service = providers.Factory(
        ArtifactCompressorService,
        files=adapters.artifact_files,
        token_counter=adapters.token_counter,
        skeletonizer=adapters.source_skeletonizer,
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
    artifact_files = adapters.artifact_files
    source_skeletonizer = adapters.source_skeletonizer
    artifact_compressor_service = services.artifact_compressor_service


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
        }
    )
    return container
