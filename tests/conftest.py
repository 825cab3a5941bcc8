"""Shared fixtures: a real database per test, the real tokenizer, the real container.

Every test that takes ``database_url`` (and so ``container`` and ``artifacts_root``) runs twice:
on a SQLite file and on a database of the PostgreSQL test server named by
``$CLEVERAGENTS_TEST_POSTGRES_URL`` (``.ci/run`` starts one). Without the variable the PostgreSQL
variants skip, except under CI, where the run fails: CI must never pass with half its database
tests skipped. A test about SQLite itself (its files, WAL, read-only mode) is marked
``sqlite_only``; ``-m "not postgresql"`` runs the SQLite variants alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from cleveragents.container import Container, build_container
from tests.postgres_databases import POSTGRES_URL_VARIABLE, PostgresDatabases, server_url

S3_ENDPOINT_VARIABLE = "CLEVERAGENTS_TEST_S3_ENDPOINT"
BACKENDS = ("sqlite", "postgresql")
BACKEND_FIXTURES = ("database_url", "empty_database_url")

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
TEST_DATA = REPO_ROOT / "tests" / "data"

# The shared corpus of real files lives beside the repository and is not shipped with it: every
# test that reads it skips, saying so, when it is absent. The variable points the tests at
# another copy (or at a missing directory, to check that they skip).
CORPUS_VARIABLE = "CLEVERAGENTS_TEST_CORPUS"
CORPUS = Path(os.environ.get(CORPUS_VARIABLE) or REPO_ROOT.parent / "shared" / "corpus")
CORPUS_ABSENT = f"the shared corpus is absent ({CORPUS}; ${CORPUS_VARIABLE} names another)"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=CORPUS_ABSENT)


def corpus_file(relative: str) -> Path:
    """A file of the corpus; the calling test skips, naming the file, when it is not there."""
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"{relative} is not in the shared corpus ({CORPUS})")
    return path


def corpus_files(folder: str, pattern: str = "*") -> list[Path]:
    """The files of a corpus folder, sorted; none when the corpus is absent (to parametrize a
    test over them, `corpus_cases`)."""
    directory = CORPUS / folder
    return sorted(p for p in directory.glob(pattern) if p.is_file()) if directory.is_dir() else []


def corpus_cases(folder: str, pattern: str = "*") -> list[Any]:
    """`corpus_files` as the cases of a parametrized test; when there are none, one case that
    skips saying why (pytest's own reason for an empty set names no corpus)."""
    skipped = pytest.mark.skip(reason=CORPUS_ABSENT)
    absent = pytest.param(CORPUS / folder, marks=skipped, id="corpus-absent")
    return corpus_files(folder, pattern) or [absent]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An isolated CLEVERAGENTS_HOME; the environment's database URL is cleared."""
    home = tmp_path / "home"
    monkeypatch.setenv("CLEVERAGENTS_HOME", str(home))
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    return home


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a test about SQLite itself; not run on PostgreSQL"
    )
    config.addinivalue_line(
        "markers", "postgresql: the test's PostgreSQL variant (set by conftest)"
    )
    if os.environ.get("CI"):
        missing = [
            name
            for name in (POSTGRES_URL_VARIABLE, S3_ENDPOINT_VARIABLE)
            if not os.environ.get(name)
        ]
        if missing:
            raise pytest.UsageError(
                f"CI is set but {' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                "not: run the suite through .ci/run, "
                "which starts the PostgreSQL and S3 test servers"
            )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """PostgreSQL variants of SQLite-only tests are deselected; the others are marked."""
    kept, deselected = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        params = {} if callspec is None else callspec.params
        if all(params.get(name) != "postgresql" for name in BACKEND_FIXTURES):
            kept.append(item)
        elif item.get_closest_marker("sqlite_only") is not None:
            deselected.append(item)
        else:
            item.add_marker(pytest.mark.postgresql)
            kept.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[PostgresDatabases]:
    """The PostgreSQL test server's throwaway databases; skips when no server is named."""
    databases = PostgresDatabases(server_url())
    yield databases
    databases.close()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new database: an empty SQLite file, or a PostgreSQL database at the schema's head."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    databases: PostgresDatabases = request.getfixturevalue("postgres_databases")
    name, url = databases.migrated()
    yield url
    databases.drop(name)


@pytest.fixture(params=BACKENDS)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new database without any table (not even Alembic's), on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    databases: PostgresDatabases = request.getfixturevalue("postgres_databases")
    name, url = databases.empty()
    yield url
    databases.drop(name)


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
