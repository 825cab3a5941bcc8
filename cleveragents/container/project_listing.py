"""The project listing that only reads, built without the container (no dependency_injector,
no SQLAlchemy): `agents project list` on an existing SQLite store loads neither.

Where the store is comes from the same resolution the container uses (``--db``, else
``$CLEVERAGENTS_DATABASE_URL``, else the file under the home). Only a plain SQLite file that
exists gets a listing; for anything else, or a file the listing declines when it reads it (a
schema to migrate), the caller lists through the container's `ProjectService`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cleveragents.adapters.persistence.locations import default_home, resolve_database_url
from cleveragents.adapters.persistence.sqlite_project_listing import (
    SqliteProjectListing,
    opens_read_only,
    sqlite_file_of_url,
)

if TYPE_CHECKING:
    from cleveragents.application.ports.project_listing import ProjectListing


def read_only_project_listing(
    database_url: str | None = None, *, home: Path | None = None
) -> ProjectListing | None:
    """The listing of the store `build_container(database_url, home=home)` would open, when it
    is an existing SQLite file; None otherwise (a server, a file not yet created: the container
    creates or reaches it, as before)."""
    url = resolve_database_url(database_url, home or default_home())
    sqlite_file = sqlite_file_of_url(url)
    if sqlite_file is None or not sqlite_file.is_file():
        return None
    # Read-only exactly when the full store would open it so (?mode=ro, a file it may not write).
    return SqliteProjectListing(sqlite_file, read_only=opens_read_only(url, sqlite_file))
