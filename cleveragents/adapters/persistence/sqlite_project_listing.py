"""The projects of a SQLite store, read with the standard library's sqlite3.

`agents project list` is a read: loading SQLAlchemy and Alembic to answer it would cost most
of its run. This reads an existing file (it never creates one) in one snapshot, and only from
a schema at `SCHEMA_REVISION`, the one whose ``projects`` table it knows. Anything else (an
older schema to migrate, a newer one, a file it cannot open) it declines with
`ListingUnavailableError`, and the full store, which migrates or reports, answers instead.

A database the full store opens read-only (``?mode=ro``, or a file this process may not write)
is opened read-only here too (SQLite's ``mode=ro``). Any other is opened ``mode=rw``, though
only read: SQLite then removes the ``-wal`` and ``-shm`` files when the last connection closes,
as it does after the full store; a read-only connection would leave them behind.
"""

from __future__ import annotations

import os
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
_READ_ONLY_QUERY = [("mode", "ro")]


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
    if parse_qsl(query, keep_blank_values=True) not in ([], _READ_ONLY_QUERY):
        return None
    return Path(path)


def opens_read_only(url: str, sqlite_file: Path) -> bool:
    """Whether the full store opens `url`'s existing file read-only: the URL asks for it
    (``?mode=ro``), or this process may not write the file (`database.opens_read_only`)."""
    asked = parse_qsl(url.partition("?")[2], keep_blank_values=True) == _READ_ONLY_QUERY
    return asked or not os.access(sqlite_file, os.W_OK)


class SqliteProjectListing:
    """`ProjectListing` over one existing SQLite file, opened for each listing."""

    def __init__(self, path: Path, *, read_only: bool) -> None:
        self.path = path
        self.read_only = read_only
        mode = "ro" if read_only else "rw"  # "rw", not "rwc": a missing file is not created
        self._uri = f"file:{quote(str(path.absolute()))}?mode={mode}"

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
