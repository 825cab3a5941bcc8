"""The database's record of where its blobs live (table ``store_settings``, migration 0007).

Written once, by the first process that opens the blob store of a database, and read by every
later one, from whichever home or machine: the blob location belongs to the store, not to how
its URL was given. Plain SQL on the store's engine; the row is one line.

A database the process cannot write (read-only), or one whose schema predates the table (a
command that does not migrate), has no record to give: the caller falls back to the location
it derives, as before the record existed. A role refused the table's privileges is told so
instead (`DatabasePrivilegeError`): its blobs would otherwise go where no other process looks.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from cleveragents.adapters.persistence.errors import DatabasePrivilegeError, translated
from cleveragents.adapters.persistence.store import SqlStore

BLOB_STORE_SETTING = "blob_store"
_READ = text("SELECT value FROM store_settings WHERE name = :name")
_WRITE = text("INSERT INTO store_settings (name, value) VALUES (:name, :value)")


class BlobStoreRecord:
    def __init__(self, store: SqlStore) -> None:
        self._store = store

    def read(self) -> str | None:
        self._store.sessions  # noqa: B018 -- the first use migrates the schema to head
        try:
            with self._store.engine.connect() as connection:
                value = connection.execute(_READ, {"name": BLOB_STORE_SETTING}).scalar()
        except SQLAlchemyError as error:
            _refused_privilege(error)
            return None  # no such table: a schema this command does not migrate
        return None if value is None else str(value)

    def record_if_absent(self, value: str) -> str:
        """Record `value` unless a record is there; return the record that holds (another
        process's, if it wrote first), or `value` if the database cannot be written."""
        if self._store.read_only:
            return value
        try:
            with self._store.engine.begin() as connection:
                connection.execute(_WRITE, {"name": BLOB_STORE_SETTING, "value": value})
        except IntegrityError:
            return self.read() or value  # written first by another process: theirs holds
        except SQLAlchemyError as error:
            _refused_privilege(error)
            return value
        return value


def _refused_privilege(error: SQLAlchemyError) -> None:
    domain_error = translated(error, failed="cannot use the blob store's record")
    if isinstance(domain_error, DatabasePrivilegeError):
        raise domain_error from error
