"""Getting a store's blob store ready before its first import (`agents blobs init`): the bucket
of an S3 store is created if it is missing; a folder is made when the store is opened.

Whichever the store, what it is and what was done is reported, so that the command says where
the blobs of this database will be kept (the location is recorded in the database then, if it
was not: see `blob_store_configuration`).
"""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.adapters.blobs.filesystem_blob_storage import FilesystemBlobStorage
from cleveragents.adapters.blobs.unreachable_blob_storage import UnreachableBlobStorage
from cleveragents.application.ports.blob_storage import BlobStorage, BlobStoreUnavailableError


@dataclass(frozen=True, slots=True)
class BlobStoreSetup:
    """Where the blobs are kept and what getting it ready did."""

    location: str  # a folder, or s3://BUCKET/PREFIX
    kind: str  # "folder" or "s3"
    created: bool  # the bucket was created by this call (a folder: never said)
    region: str | None  # an S3 bucket's region, as the client signs for it


def prepare_blob_store(storage: BlobStorage) -> BlobStoreSetup:
    """Create the missing bucket of an S3 store; a store this machine cannot reach (a folder
    recorded on another machine) fails with its reason."""
    if isinstance(storage, UnreachableBlobStorage):
        raise BlobStoreUnavailableError(storage.reason)
    if isinstance(storage, FilesystemBlobStorage):  # its folder was made when it was opened
        return BlobStoreSetup(str(storage.root), "folder", created=False, region=None)
    # Here, not at the top: the S3 adapter costs ~35 ms that a store in a folder never needs.
    from cleveragents.adapters.blobs.s3_blob_storage import S3BlobStorage
    from cleveragents.adapters.blobs.s3_bucket_creation import create_bucket_if_missing, region_of

    if isinstance(storage, S3BlobStorage):
        created = create_bucket_if_missing(storage.client, storage.location)
        return BlobStoreSetup(str(storage.location), "s3", created, region_of(storage.client))
    raise TypeError(f"no setup for a blob store of type {type(storage).__name__}")
