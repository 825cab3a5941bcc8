"""Shared fixtures: a real SQLite file per test, the real tokenizer, the real container."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from cleveragents.container import Container, build_container

# No timing in assertions: hypothesis' per-example deadline is off; CI runs derandomized.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
TEST_DATA = REPO_ROOT / "tests" / "data"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An isolated CLEVERAGENTS_HOME; the environment's database URL is cleared."""
    home = tmp_path / "home"
    monkeypatch.setenv("CLEVERAGENTS_HOME", str(home))
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    return home


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.db'}"


@pytest.fixture
def container(database_url: str, home: Path) -> Iterator[Container]:
    built = build_container(database_url, home=home)
    yield built
    built.store().dispose()


@pytest.fixture
def artifacts_root(home: Path, database_url: str) -> Path:
    """Where the artifact store of the test database keeps its blobs."""
    from cleveragents.container import artifacts_dir

    return artifacts_dir(home, database_url)
