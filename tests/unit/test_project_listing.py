"""The read-only project listing: which stores get one (the same file SQLAlchemy would open, or
none), and the service that prefers it and falls back to the full store."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cleveragents.adapters.persistence import database
from cleveragents.adapters.persistence.sqlite_project_listing import (
    SqliteProjectListing,
    opens_read_only,
    sqlite_file_of_url,
)
from cleveragents.application.ports.project_listing import ListingUnavailableError, ProjectListing
from cleveragents.application.services.projects.project_service import list_projects
from cleveragents.container.project_listing import read_only_project_listing
from cleveragents.domain.project import Project

READ = [
    "sqlite:////var/lib/store.db",
    "sqlite:///relative/store.db",
    "sqlite:///store.db?mode=ro",
    "sqlite+pysqlite:////var/lib/store.db",
    "sqlite:////var/lib/a%20b%3Fc.db",
    "sqlite:////var/lib/100%25.db?mode=ro",
]
LEFT_TO_SQLALCHEMY = [
    "sqlite://",
    "sqlite:///",
    "sqlite:///:memory:",
    "sqlite:///file:store.db?mode=ro&uri=true",
    "sqlite:///~/store.db",
    "sqlite:///store.db?mode=rw",
    "sqlite:///store.db?timeout=5",
    "sqlite:///store.db?mode=ro&mode=ro",
    "sqlite:///a%00b.db",
    "sqlite+aiosqlite:///store.db",
    "sqlite://host/store.db",
    "postgresql+psycopg://user:secret@localhost/cleveragents",
    "not a url",
]


@pytest.mark.parametrize("url", READ)
def test_a_plain_sqlite_url_names_the_file_sqlalchemy_opens(url: str) -> None:
    assert sqlite_file_of_url(url) == database.sqlite_file_path(url)


@pytest.mark.parametrize("url", LEFT_TO_SQLALCHEMY)
def test_every_other_url_is_left_to_the_full_store(url: str) -> None:
    assert sqlite_file_of_url(url) is None


AS_ROOT = os.geteuid() == 0


@pytest.mark.parametrize("query", ["", "?mode=ro"])
@pytest.mark.parametrize("file_mode", [0o600, 0o400])
def test_read_only_exactly_when_the_full_store_opens_read_only(
    tmp_path: Path, query: str, file_mode: int
) -> None:
    stored = tmp_path / "store.db"
    stored.write_bytes(b"")
    stored.chmod(file_mode)
    url = f"sqlite:///{stored}{query}"
    assert opens_read_only(url, stored) is database.opens_read_only(url)
    # Root may write a 0400 file: only ?mode=ro makes it read-only then.
    expected = bool(query) or (file_mode == 0o400 and not AS_ROOT)
    assert opens_read_only(url, stored) is expected


def test_a_database_named_by_the_environment_is_the_one_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere.db"
    elsewhere.write_bytes(b"")
    monkeypatch.setenv("CLEVERAGENTS_DATABASE_URL", f"sqlite:///{elsewhere}")
    listing = read_only_project_listing(home=tmp_path / "home")
    assert isinstance(listing, SqliteProjectListing)
    assert (listing.path, listing.read_only) == (elsewhere, False)
    listing = read_only_project_listing(f"sqlite:///{elsewhere}?mode=ro", home=tmp_path / "home")
    assert isinstance(listing, SqliteProjectListing)
    assert (listing.path, listing.read_only) == (elsewhere, True)


def test_a_store_not_created_yet_or_on_a_server_gets_no_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    assert read_only_project_listing(home=tmp_path / "home") is None
    assert read_only_project_listing(f"sqlite:///{tmp_path / 'missing.db'}") is None
    assert read_only_project_listing(f"sqlite:///{tmp_path}") is None  # a directory
    assert read_only_project_listing("postgresql+psycopg://localhost/cleveragents") is None


# --- the service ----------------------------------------------------------------------------

SHOP = Project(name="shop")


class AnsweringListing:
    def __init__(self, projects: list[Project]) -> None:
        self.projects = projects
        self.calls = 0

    def list(self) -> list[Project]:
        self.calls += 1
        return list(self.projects)


class DecliningListing:
    def list(self) -> list[Project]:
        raise ListingUnavailableError("the schema is at 0006_bigint_counts")


class FullStore:
    """Stands in for the container's project service: counts how often it is built."""

    def __init__(self, projects: list[Project]) -> None:
        self.listing = AnsweringListing(projects)
        self.built = 0

    def __call__(self) -> ProjectListing:
        self.built += 1
        return self.listing


def test_the_read_only_listing_answers_and_the_full_store_is_never_built() -> None:
    full = FullStore([])
    assert list_projects(AnsweringListing([SHOP]), full) == [SHOP]
    assert full.built == 0


def test_a_declined_listing_is_answered_by_the_full_store() -> None:
    full = FullStore([SHOP])
    assert list_projects(DecliningListing(), full) == [SHOP]
    assert (full.built, full.listing.calls) == (1, 1)


def test_without_a_read_only_listing_the_full_store_answers() -> None:
    full = FullStore([SHOP])
    assert list_projects(None, full) == [SHOP]
    assert full.built == 1


def test_errors_other_than_declining_are_not_hidden() -> None:
    class Broken:
        def list(self) -> list[Project]:
            raise RuntimeError("a bug")

    full = FullStore([SHOP])
    with pytest.raises(RuntimeError, match="a bug"):
        list_projects(Broken(), full)
    assert full.built == 0
