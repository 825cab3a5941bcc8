"""The projects of a SQLite store, read with the standard library's sqlite3.

`agents project list` is a read: loading SQLAlchemy and Alembic to answer it would cost most
of its run. This reads the file read-only (SQLite's ``mode=ro``: a database this process may
not write works too, and nothing is ever created or changed), in one snapshot, and only from a
schema at `SCHEMA_REVISION`, the one whose ``projects`` table it knows. Anything else (an older
schema to migrate, a newer one, a file it cannot open) it declines with
`ListingUnavailableError`, and the full store, which migrates or reports, answers instead.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from urllib.parse import parse_qsl, quote, unquote

from cleveragents.adapters.persistence.project_columns import PROJECT_COLUMNS, project_from_columns
from cleveragents.application.ports.project_listing import ListingUnavailableError
from cleveragents.domain.project import Project

SCHEMA_REVISION = "0007_store_settings"
"""The Alembic revision whose tables this reads: the migrations' head (a test says so, so a new
migration cannot leave it behind)."""

BUSY_TIMEOUT_SECONDS = 30.0
"""How long to wait for a writer's lock (a store in rollback-journal mode), as the full store
waits."""

_SQLITE_SCHEMES = ("sqlite:///", "sqlite+pysqlite:///")


def sqlite_file_of_url(url: str) -> Path | None:
    """The file of a plain file-backed SQLite URL (``sqlite:///PATH``, optionally with
    ``?mode=ro``), as SQLAlchemy reads it, decided without SQLAlchemy; None for any other URL
    (servers, ``:memory:``, ``file:`` URIs, other query options), which then goes the full way.
    """
    scheme = next((s for s in _SQLITE_SCHEMES if url.startswith(s)), None)
    if scheme is None:
        return None
    database, _, query = url[len(scheme) :].partition("?")
    path = unquote(database)
    # A "~" SQLAlchemy would hand to SQLite unexpanded: left to it, as every other oddity.
    if not path or path == ":memory:" or path.startswith(("file:", "~")) or "\0" in path:
        return None
    if parse_qsl(query, keep_blank_values=True) not in ([], [("mode", "ro")]):
        return None
    return Path(path)


class SqliteProjectListing:
    """`ProjectListing` over one SQLite file, opened read-only for each listing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._uri = f"file:{quote(str(path.absolute()))}?mode=ro"

    def list(self) -> list[Project]:
        try:
            connection = sqlite3.connect(
                self._uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None
            )
        except sqlite3.Error as error:
            raise ListingUnavailableError(f"cannot open {self._uri}: {error}") from error
        try:
            with closing(connection):
                # One read transaction: the revision checked is the one the rows are read at.
                connection.execute("BEGIN")
                _require_schema_revision(connection)
                cursor = connection.execute(
                    f"SELECT {', '.join(PROJECT_COLUMNS)} FROM projects ORDER BY name"
                )
                rows = cursor.fetchall()
        except sqlite3.Error as error:
            raise ListingUnavailableError(f"cannot read {self._uri}: {error}") from error
        return [project_from_columns(dict(zip(PROJECT_COLUMNS, row, strict=True))) for row in rows]


def _require_schema_revision(connection: sqlite3.Connection) -> None:
    # No alembic_version table (an empty or foreign file) fails as sqlite3.Error: declined too.
    revisions = [row[0] for row in connection.execute("SELECT version_num FROM alembic_version")]
    if revisions != [SCHEMA_REVISION]:
        raise ListingUnavailableError(
            f"the schema is at {revisions or 'no revision'}, not {SCHEMA_REVISION}"
        )
