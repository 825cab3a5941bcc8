"""The DI container: every documented provider resolves to the right type; overrides work."""

from __future__ import annotations

import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.adapters.persistence.store import SqlStore
from cleveragents.adapters.persistence.unit_of_work import SqlaUnitOfWork
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.ports.unit_of_work import UnitOfWork
from cleveragents.application.services.plans.child_plans import ChildPlanSpawner
from cleveragents.application.services.plans.plan_service import PlanService
from cleveragents.application.services.plans.skeleton_compressor import SkeletonCompressorService
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.container import Container, build_container, build_token_counter
from cleveragents.domain.errors import InvalidInputError
from tests.fakes import FakeTokenCounter


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Container]:
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    monkeypatch.delenv("CLEVERAGENTS_HOME", raising=False)
    container = build_container(f"sqlite:///{tmp_path / 'x.db'}", home=tmp_path)
    yield container
    container.store().dispose()


def test_every_provider_resolves(built: Container, tmp_path: Path) -> None:
    store = built.store()
    assert isinstance(store, SqlStore)
    assert store.url == f"sqlite:///{tmp_path / 'x.db'}"
    assert built.store() is store  # one engine per process

    uow = built.unit_of_work()
    assert isinstance(uow, SqlaUnitOfWork)
    assert isinstance(uow, UnitOfWork)
    assert built.unit_of_work() is not uow  # one per use case

    counter = built.token_counter()
    assert isinstance(counter, TiktokenCounter)
    assert isinstance(counter, TokenCounter)
    assert counter.encoding_name == "cl100k_base"

    compressor = built.skeleton_compressor_service()
    assert isinstance(compressor, SkeletonCompressorService)
    assert built.skeleton_compressor_service() is compressor

    assert isinstance(built.project_service(), ProjectService)
    assert isinstance(built.plan_service(), PlanService)
    assert isinstance(built.child_plan_spawner(), ChildPlanSpawner)


def test_skeleton_compressor_service_from_container_compresses(built: Container) -> None:
    service = built.skeleton_compressor_service()
    result = service.compress([], None)
    assert result.metadata.ratio == 0.3


def test_token_counter_override_is_honoured_by_plan_service(built: Container) -> None:
    fake = FakeTokenCounter()
    built.project_service().create("demo")
    with built.token_counter.override(fake):
        plans = built.plan_service()
        plan = plans.create("demo", "p")
        decision = plans.decide(plan.id, "antidisestablishmentarianism is long")
    assert fake.counted == ["antidisestablishmentarianism is long"]
    assert decision.fragment.token_count == 3
    # Outside the override the real counter is back.
    assert isinstance(built.token_counter(), TiktokenCounter)
    stored = built.plan_service().status(plan.id).plan
    assert [f.token_count for f in stored.fragments] == [3]


def test_child_plan_spawner_uses_the_container_store(built: Container) -> None:
    built.project_service().create("demo")
    plans = built.plan_service()
    parent = plans.create("demo", "parent")
    for fragment_id, relevance, tokens in (("A", 0.9, 400), ("B", 0.6, 300), ("C", 0.3, 300)):
        plans.decide(
            parent.id, fragment_id, relevance=relevance, token_count=tokens, fragment_id=fragment_id
        )
    child = built.child_plan_spawner().spawn_child(parent.id, "child", skeleton_ratio=0.5)
    assert [f.fragment_id for f in child.inherited_fragments] == ["A"]
    stored = plans.status(child.id).plan
    assert stored.skeleton_metadata == child.skeleton_metadata


def test_shutting_down_opens_no_store_and_disposes_an_opened_one(tmp_path: Path) -> None:
    database = tmp_path / "lazy.db"
    container = build_container(f"sqlite:///{database}", home=tmp_path)
    container.token_counter()
    container.shutdown_resources()  # what the CLI does when a command ends
    assert not database.exists()  # nothing asked for the store: it was never opened

    container = build_container(f"sqlite:///{database}", home=tmp_path)
    assert container.project_service().list() == []
    assert database.exists()
    store = container.store()
    container.shutdown_resources()
    assert store._engine is None  # the engine was disposed
    assert container.store() is not store  # the next use opens the store afresh


def test_a_new_home_given_explicitly_is_created_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    monkeypatch.setenv("CLEVERAGENTS_HOME", str(tmp_path / "not-this-one"))
    home = tmp_path / "new" / "home"
    container = build_container(home=home)
    try:
        assert container.project_service().list() == []
    finally:
        container.shutdown_resources()
    assert (home / "cleveragents.db").is_file()
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
    assert not (tmp_path / "not-this-one").exists()


def test_the_directory_of_an_explicit_database_is_never_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    missing = tmp_path / "missing"
    container = build_container(f"sqlite:///{missing / 'x.db'}", home=tmp_path / "home")
    with pytest.raises(InvalidInputError, match="does not exist"):
        container.project_service().list()
    container.shutdown_resources()
    assert not missing.exists()
    assert not (tmp_path / "home").exists()  # the store is not the home's: no home is needed

    monkeypatch.setenv("CLEVERAGENTS_DATABASE_URL", f"sqlite:///{missing / 'env.db'}")
    container = build_container(home=tmp_path / "home")
    with pytest.raises(InvalidInputError, match="does not exist"):
        container.project_service().list()
    container.shutdown_resources()
    assert not missing.exists()


def test_where_the_store_lives_is_decided_without_sqlalchemy() -> None:
    probe = (
        "import sys\n"
        "from cleveragents.adapters.persistence.locations import resolve_database_url\n"
        "from cleveragents.container import build_container\n"
        "build_container().token_counter()\n"
        "print(resolve_database_url('sqlite:///x.db'), 'sqlalchemy' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["sqlite:///x.db", "False"]


def test_the_tokenizer_alone_is_built_as_the_container_builds_it(tmp_path: Path) -> None:
    alone = build_token_counter("o200k_base", home=tmp_path)
    from_container = build_container(home=tmp_path, encoding="o200k_base").token_counter()
    assert isinstance(alone, TiktokenCounter)
    assert alone.encoding_name == from_container.encoding_name == "o200k_base"
    assert alone._cache_dir == from_container._cache_dir == tmp_path / "cache" / "tiktoken"
    assert alone.count("hello world") == from_container.count("hello world")


def test_the_tokenizer_alone_loads_no_dependency_injector() -> None:
    probe = (
        "import sys\n"
        "from cleveragents.container import build_token_counter\n"
        "print(build_token_counter().count('hello world'), 'dependency_injector' in sys.modules)\n"
        "from cleveragents.container import Container\n"
        "print(Container.__name__, 'dependency_injector' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["2", "False", "Container", "True"]


def test_every_provider_of_every_container_resolves(built: Container) -> None:
    """Each provider the containers declare builds its object on a real SQLite file: a
    provider wired with a wrong argument fails here, not on a user's first use of it."""
    resolved: dict[str, object] = {}
    for container in (built, built.adapters(), built.services()):
        for name, provider in container.providers.items():
            if name in ("config", "adapters", "services"):
                continue
            resolved[name] = provider()
    assert len(resolved) >= 30
    assert [name for name, value in resolved.items() if value is None] == []
