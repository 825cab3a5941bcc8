"""Where a store's blobs live: a folder, or a bucket and prefix on S3-compatible storage.

Written as text (a folder's absolute path, or ``s3://BUCKET/PREFIX``) in the environment
(``CLEVERAGENTS_BLOB_STORE``) and in the database's record of it. Parsing imports no boto3, so
a store on a folder never loads it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from cleveragents.domain.errors import InvalidInputError

BLOB_STORE_ENV = "CLEVERAGENTS_BLOB_STORE"
S3_ENDPOINT_ENV = "CLEVERAGENTS_S3_ENDPOINT_URL"
BLOB_GRACE_ENV = "CLEVERAGENTS_BLOB_GRACE_SECONDS"
DEFAULT_BLOB_GRACE_SECONDS = 3600.0
_S3_SCHEME = "s3://"


@dataclass(frozen=True, slots=True)
class S3Location:
    bucket: str
    prefix: str  # "" or ends with "/"

    def __str__(self) -> str:
        return f"{_S3_SCHEME}{self.bucket}/{self.prefix}"


BlobStoreLocation = Path | S3Location


def parse_blob_store(text: str, source: str, base: Path | None = None) -> BlobStoreLocation:
    """``s3://BUCKET[/PREFIX]``, else a folder: a relative one is taken from `base` (else the
    current directory). `source` names where the text came from, for the error."""
    if "://" not in text:
        if not text.strip():
            raise InvalidInputError(f"{source} is empty: expected a folder or s3://BUCKET/PREFIX")
        folder = Path(text).expanduser()
        return (base / folder if base is not None else folder).absolute()
    if not text.startswith(_S3_SCHEME):
        raise InvalidInputError(
            f"{source}={text!r} is not a blob store: expected a folder or s3://BUCKET/PREFIX"
        )
    bucket, _, prefix = text[len(_S3_SCHEME) :].partition("/")
    if not bucket:
        raise InvalidInputError(f"{source}={text!r} names no bucket: expected s3://BUCKET/PREFIX")
    prefix = prefix.strip("/")
    return S3Location(bucket=bucket, prefix=f"{prefix}/" if prefix else "")


def blob_store_text(location: BlobStoreLocation) -> str:
    return str(location)


def blob_grace_seconds(environ: Mapping[str, str] = os.environ) -> float:
    """How long a blob no row refers to is kept: ``$CLEVERAGENTS_BLOB_GRACE_SECONDS``, else an
    hour. Longer than any import takes between publishing its blob and committing its row,
    plus the clock skew between the machines that share the store."""
    text = environ.get(BLOB_GRACE_ENV)
    if text is None or not text.strip():
        return DEFAULT_BLOB_GRACE_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise InvalidInputError(
            f"{BLOB_GRACE_ENV}={text!r} is not a number of seconds >= 0 (default 3600)"
        )
    return seconds
