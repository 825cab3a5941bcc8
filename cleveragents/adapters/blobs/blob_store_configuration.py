"""Which blob store a database uses, and the adapter for it.

1. ``$CLEVERAGENTS_BLOB_STORE`` (a folder, or ``s3://BUCKET/PREFIX`` with
   ``$CLEVERAGENTS_S3_ENDPOINT_URL`` for a server other than AWS), when set;
2. else the location the database recorded when its blob store was first opened;
3. else the folder derived from the resolved database URL (``$CLEVERAGENTS_HOME/artifacts`` for
   the home's own database, ``.../artifacts/databases/<digest of the URL>`` for another), which
   is then recorded.

The first opening records what it used (1 or 3), so every later process, from any home or
machine, finds the same blobs however it was given the URL. A folder beneath the database's
own folder (the home's database and its ``artifacts``) is recorded relative to it: a home moved
as a whole keeps its blobs. A recorded folder that is not on this machine gives an adapter whose
every blob operation fails in one line naming where the blob should be.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from cleveragents.adapters.blobs.blob_store_locations import (
    BLOB_STORE_ENV,
    S3_ENDPOINT_ENV,
    BlobStoreLocation,
    S3Location,
    blob_grace_seconds,
    parse_blob_store,
)
from cleveragents.adapters.blobs.blob_store_record import BlobStoreRecord
from cleveragents.adapters.blobs.filesystem_blob_storage import FilesystemBlobStorage
from cleveragents.adapters.blobs.unreachable_blob_storage import UnreachableBlobStorage
from cleveragents.adapters.persistence.database import sqlite_file_path
from cleveragents.adapters.persistence.store import SqlStore
from cleveragents.application.ports.blob_storage import BlobStorage

_RECORDED = "the blob store recorded in the database"


def configured_blob_storage(
    store: SqlStore, derived_folder: Path, environ: Mapping[str, str] = os.environ
) -> BlobStorage:
    """The blob store of `store`'s database; `derived_folder` is the default of step 3, and
    the local folder of staging files and temporary outputs whatever holds the blobs."""
    base = _database_folder(store.url)
    record = BlobStoreRecord(store)
    recorded = record.read()
    explicit = environ.get(BLOB_STORE_ENV) or None
    if explicit is not None:
        location = parse_blob_store(explicit, BLOB_STORE_ENV)
        if recorded is None:
            record.record_if_absent(_record_text(location, base))
    elif recorded is not None:
        location = parse_blob_store(recorded, _RECORDED, base)
    else:
        winner = record.record_if_absent(_record_text(derived_folder.absolute(), base))
        location = parse_blob_store(winner, _RECORDED, base)
    return _adapter(location, derived_folder, store, explicit is not None, environ)


def _adapter(
    location: BlobStoreLocation,
    derived_folder: Path,
    store: SqlStore,
    explicit: bool,
    environ: Mapping[str, str],
) -> BlobStorage:
    if isinstance(location, S3Location):
        return _s3_adapter(location, derived_folder, environ)
    if location == derived_folder.absolute() or location.is_dir():
        return FilesystemBlobStorage(root=location)
    if explicit:
        reason = f"the blob store folder {location} ({BLOB_STORE_ENV}) does not exist"
    else:
        reason = (
            f"the blob store {location}, recorded in the database {store.display_url()}, is "
            f"not on this machine: make it reachable at that path, or set {BLOB_STORE_ENV} "
            "to where its blobs are"
        )
    return UnreachableBlobStorage(location, reason)


def _s3_adapter(location: S3Location, work_root: Path, environ: Mapping[str, str]) -> BlobStorage:
    # Here, not at the top: the S3 adapter costs ~20 ms that a store in a folder never needs.
    from cleveragents.adapters.blobs.s3_blob_storage import S3BlobStorage, make_s3_client

    client = make_s3_client(environ.get(S3_ENDPOINT_ENV) or None)
    return S3BlobStorage(client, location, work_root, grace_seconds=blob_grace_seconds(environ))


def _database_folder(url: str) -> Path | None:
    database = sqlite_file_path(url)
    return None if database is None else database.absolute().parent


def _record_text(location: BlobStoreLocation, base: Path | None) -> str:
    if isinstance(location, Path) and base is not None and location.is_relative_to(base):
        return str(location.relative_to(base))
    return str(location)
