"""`agents blobs init`'s way to the blob store: the container's, made ready (see
`adapters.blobs.blob_store_setup`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cleveragents.adapters.blobs.blob_store_setup import BlobStoreSetup
    from cleveragents.container.wiring import Container


def prepare_blob_store(container: Container) -> BlobStoreSetup:
    """The container's blob store made ready: an S3 store's missing bucket created."""
    from cleveragents.adapters.blobs.blob_store_setup import prepare_blob_store as prepare

    return prepare(container.blob_storage())
