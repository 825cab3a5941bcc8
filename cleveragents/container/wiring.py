"""What depends on what: the dependency-injector containers, per concern, composed into
`Container`. Each provider calls its builder in `factories`, on first use."""

from __future__ import annotations

from dependency_injector import containers, providers

from cleveragents.container import factories as build


class AdaptersContainer(containers.DeclarativeContainer):
    config = providers.Configuration()

    store = providers.Resource(
        build.sql_store,
        database_url=config.database_url,
        home=config.home,
        create_home=config.create_home,
        auto_migrate=config.auto_migrate,
    )
    unit_of_work = providers.Factory(build.unit_of_work, session_factory=store.provided.sessions)
    token_counter = providers.Singleton(
        build.token_counter, encoding_name=config.encoding, cache_dir=config.tokenizer_cache_dir
    )
    # The tokenizer of any encoding, for a use case that names one (the budget planner's).
    token_counters = providers.Callable(
        build.token_counters, default=token_counter, cache_dir=config.tokenizer_cache_dir
    )
    source_skeletonizer = providers.Singleton(build.source_skeletonizer)
    blob_storage = providers.Singleton(
        build.blob_storage, home=config.home, database_url=config.database_url, store=store
    )
    blob_grace_seconds = providers.Callable(build.blob_grace_seconds)
    contained_files = providers.Singleton(build.contained_files)
    secret_scanner = providers.Singleton(build.secret_scanner, name=config.secret_scanner)
    clock = providers.Singleton(build.clock)
    user = providers.Callable(build.user)
    event_sink = providers.Singleton(
        build.event_sink, session_factory=store.provided.sessions, clock=clock
    )
    # Events dropped, for work that must open no database (a compaction given no store).
    discarded_events = providers.Singleton(build.discarded_events)
    transcript_codec = providers.Singleton(build.transcript_codec)
    usage_ledger = providers.Singleton(build.usage_ledger, session_factory=store.provided.sessions)
    model_catalog = providers.Singleton(build.model_catalog)
    prefix_spec_reader = providers.Singleton(build.prefix_spec_reader)
    budget_weights = providers.Singleton(build.budget_weights)
    # Documents read by path, bounded (the Python API's and the MCP server's).
    text_files = providers.Singleton(build.text_files)


class ServicesContainer(containers.DeclarativeContainer):
    adapters = providers.DependenciesContainer()

    skeleton_compressor_service = providers.Singleton(build.skeleton_compressor_service)
    project_service = providers.Factory(
        build.project_service, uow_factory=adapters.unit_of_work.provider
    )
    plan_service = providers.Factory(
        build.plan_service,
        uow_factory=adapters.unit_of_work.provider,
        token_counter=adapters.token_counter,
        scanner=adapters.secret_scanner,
    )
    child_plan_spawner = providers.Factory(
        build.child_plan_spawner,
        uow_factory=adapters.unit_of_work.provider,
        compressor=skeleton_compressor_service,
        scanner=adapters.secret_scanner,
    )
    artifact_store = providers.Singleton(
        build.artifact_store,
        uow_factory=adapters.unit_of_work.provider,
        blobs=adapters.blob_storage,
        files=adapters.contained_files,
        scanner=adapters.secret_scanner,
        clock=adapters.clock,
        user=adapters.user,
        blob_grace_seconds=adapters.blob_grace_seconds,
    )
    # The store goes in as its provider, called only when a compression stores or reads a
    # stored artifact: compressing a plain file opens no database.
    artifact_compressor_service = providers.Factory(
        build.artifact_compressor_service,
        files=adapters.contained_files,
        token_counter=adapters.token_counter,
        skeletonizer=adapters.source_skeletonizer,
        scanner=adapters.secret_scanner,
        store=artifact_store.provider,
    )
    summarizer = providers.Singleton(build.summarizer)
    # The event sink as its provider: building or comparing a prefix opens no database.
    stable_prefix_builder = providers.Factory(
        build.stable_prefix_builder,
        secret_scanner=adapters.secret_scanner,
        projects=project_service,
        events=adapters.event_sink.provider,
    )
    # The planner as every driver asks for it; the project service is built only when a
    # project is named, so planning opens no database otherwise.
    budget_planning = providers.Factory(
        build.budget_planning,
        weights=adapters.budget_weights,
        counters=adapters.token_counters,
        projects=project_service.provider,
    )
    tool_output_shrinker = providers.Factory(
        build.tool_output_shrinker,
        compressor=artifact_compressor_service,
        counter=adapters.token_counter,
        scanner=adapters.secret_scanner,
        store=artifact_store,
    )
    context_compactor = providers.Factory(
        build.context_compactor,
        token_counter=adapters.token_counter,
        summarizer=summarizer,
        events=adapters.event_sink,
        secret_scanner=adapters.secret_scanner,
        shrinker=tool_output_shrinker,
    )
    # The same compaction with no store behind it (the Python API's, unless it is given one):
    # its events are dropped and the full outputs of shrunk tool results are not kept, so no
    # database is opened and no file is written.
    storeless_tool_output_shrinker = providers.Factory(
        build.tool_output_shrinker,
        compressor=artifact_compressor_service,
        counter=adapters.token_counter,
        scanner=adapters.secret_scanner,
        store=None,
    )
    storeless_context_compactor = providers.Factory(
        build.context_compactor,
        token_counter=adapters.token_counter,
        summarizer=summarizer,
        events=adapters.discarded_events,
        secret_scanner=adapters.secret_scanner,
        shrinker=storeless_tool_output_shrinker,
    )
    # A transcript compacted with either compactor; the project service goes in as its
    # provider, called when a compaction names a project.
    transcript_compactor = providers.Factory(
        build.transcript_compactor,
        codec=adapters.transcript_codec,
        compactor=context_compactor,
        projects=project_service.provider,
    )
    storeless_transcript_compactor = providers.Factory(
        build.transcript_compactor,
        codec=adapters.transcript_codec,
        compactor=storeless_context_compactor,
        projects=project_service.provider,
    )
    strategy_comparison = providers.Factory(
        build.strategy_comparison,
        token_counter=adapters.token_counter,
        summarizer=summarizer,
        secret_scanner=adapters.secret_scanner,
    )
    metrics_service = providers.Factory(
        build.metrics_service,
        uow_factory=adapters.unit_of_work.provider,
        ledger=adapters.usage_ledger,
        catalog=adapters.model_catalog,
        events=adapters.event_sink,
        codec=adapters.transcript_codec,
        clock=adapters.clock,
    )
    # The delivery gates (SOP 7): on the store, and on context in flight. The gate in flight
    # takes the catalog as its provider, loaded only when there is a cache figure to check,
    # and opens no database.
    # The steps of `agents demo`, over the services it shows.
    demo_tour = providers.Factory(
        build.demo_tour,
        projects=project_service,
        plans=plan_service,
        spawner=child_plan_spawner,
        compressor=artifact_compressor_service,
        store=artifact_store,
        compactor=context_compactor,
        metrics=metrics_service,
        codec=adapters.transcript_codec,
        counter=adapters.token_counter,
    )
    store_verifier = providers.Factory(
        build.store_verifier,
        uow_factory=adapters.unit_of_work.provider,
        store=artifact_store,
        blobs=adapters.blob_storage,
        scanner=adapters.secret_scanner,
        events=adapters.event_sink,
        ledger=adapters.usage_ledger,
        catalog=adapters.model_catalog,
        codec=adapters.transcript_codec,
    )
    delivery_gate = providers.Factory(
        build.delivery_gate,
        codec=adapters.transcript_codec,
        scanner=adapters.secret_scanner,
        catalog=adapters.model_catalog.provider,
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
    child_plan_spawner = services.child_plan_spawner
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
    storeless_context_compactor = services.storeless_context_compactor
    transcript_compactor = services.transcript_compactor
    storeless_transcript_compactor = services.storeless_transcript_compactor
    strategy_comparison = services.strategy_comparison
    usage_ledger = adapters.usage_ledger
    model_catalog = adapters.model_catalog
    metrics_service = services.metrics_service
    prefix_spec_reader = adapters.prefix_spec_reader
    stable_prefix_builder = services.stable_prefix_builder
    budget_planning = services.budget_planning
    text_files = adapters.text_files
    store_verifier = services.store_verifier
    demo_tour = services.demo_tour
    delivery_gate = services.delivery_gate
