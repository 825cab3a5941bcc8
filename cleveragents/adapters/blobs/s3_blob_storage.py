"""Content-addressed blobs in an S3-compatible bucket, shared by every machine of a deployment.

Keys: ``<prefix>blobs/ab/cdef...`` (the SHA-256) and ``<prefix>reused/ab/cdef...``, an empty
marker that an importer writes when it finds its content already there: S3 cannot touch an
object's LastModified without rewriting it, and a blob is never rewritten.

- Writes are conditional: PutObject, or CompleteMultipartUpload for a blob larger than one
  part, with ``If-None-Match: *``. A blob already there (412, or 409 while another upload of
  it completes) counts as published: the content is the same, by its name.
- Streamed both ways: an import is staged in a local file (the staging folder of
  `LocalWorkArea`, as for the filesystem store) and uploaded from it one part at a time; a
  read is a series of ranged GETs, from the offset asked, in windows that grow while the
  reading goes on, so neither holds more than a part or a window in memory.
- Cleanup across machines: `modified_at` is the later of the blob's and its marker's
  LastModified, the bucket's clock, so that every machine's cleanup sees the same ages;
  the artifact store removes nothing younger than its grace period. `sweep_staging` aborts
  multipart uploads that were started longer ago than that period (importers that died).
- Temporary outputs of trusted tools stay local files (a tool writes to a path): the import
  reads one and uploads it like any other output.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import io
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from botocore.exceptions import BotoCoreError, ClientError

from cleveragents.adapters.blobs.blob_store_locations import S3Location
from cleveragents.adapters.blobs.digests import check_digest, is_digest
from cleveragents.adapters.blobs.local_work_area import LocalWorkArea, StagingFile
from cleveragents.application.ports.blob_storage import (
    BlobMissingError,
    BlobStorage,
    BlobStoreUnavailableError,
    BlobWriter,
    TempOutputFolder,
)

PART_BYTES = 8 << 20  # S3 requires parts of 5 MiB at least (all but the last)
FIRST_READ_WINDOW = 64 << 10  # a preview's head needs a few KB
MAX_READ_WINDOW = 8 << 20
_ALREADY_THERE = frozenset({"PreconditionFailed", "ConditionalRequestConflict"})
_NOT_FOUND = frozenset({"404", "NoSuchKey", "NotFound"})


def make_s3_client(endpoint_url: str | None) -> Any:
    """A client from boto3's own configuration (credentials, region, ``AWS_*`` variables),
    with `endpoint_url` for an S3-compatible server; failures bounded in time, so that a store
    that cannot be reached says so instead of hanging."""
    # Here, not at the top: boto3 is the optional `s3` extra.
    import boto3
    from botocore.config import Config

    config = Config(
        connect_timeout=10,
        read_timeout=60,
        retries={"mode": "standard", "max_attempts": 3},
        # Checksums only where the request asks for one (S3-compatible servers differ).
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
    )
    try:
        return boto3.session.Session().client("s3", endpoint_url=endpoint_url, config=config)
    except (BotoCoreError, ValueError) as error:
        raise BlobStoreUnavailableError(
            f"cannot make an S3 client for {endpoint_url or 'AWS'}: {error}"
        ) from error


class S3BlobStorage(BlobStorage):
    def __init__(
        self,
        client: Any,
        location: S3Location,
        work_root: Path,
        *,
        grace_seconds: float,
        part_bytes: int = PART_BYTES,
    ) -> None:
        self.client = client
        self.location = location
        self.work_area = LocalWorkArea(work_root)
        self.grace_seconds = grace_seconds
        self.part_bytes = part_bytes

    # -- keys --------------------------------------------------------------------------------

    def key_of(self, sha256: str) -> str:
        return f"{self.location.prefix}blobs/{sha256[:2]}/{sha256[2:]}"

    def _marker_of(self, sha256: str) -> str:
        return f"{self.location.prefix}reused/{sha256[:2]}/{sha256[2:]}"

    def url_of(self, key: str) -> str:
        return f"s3://{self.location.bucket}/{key}"

    # -- the port ----------------------------------------------------------------------------

    def begin(self) -> BlobWriter:
        # Read back at once by this process: no fsync, the upload is what makes it durable.
        return StagingFile(self.work_area, self.publish, durable=False)

    def open(self, sha256: str) -> BinaryIO:
        key = self.key_of(check_digest(sha256))
        size = int(self._head(key, sha256)["ContentLength"])
        raw = _RangedObject(self, key, size)
        return io.BufferedReader(raw, buffer_size=FIRST_READ_WINDOW)

    def size(self, sha256: str) -> int:
        return int(self._head(self.key_of(check_digest(sha256)), sha256)["ContentLength"])

    def delete(self, sha256: str) -> None:
        check_digest(sha256)
        with self._errors(self.key_of(sha256)):
            self.client.delete_object(Bucket=self.location.bucket, Key=self.key_of(sha256))
            self.client.delete_object(Bucket=self.location.bucket, Key=self._marker_of(sha256))

    def modified_at(self, sha256: str) -> float:
        published = self._head(self.key_of(check_digest(sha256)), sha256)["LastModified"]
        marker = self._head_or_none(self._marker_of(sha256))
        latest = published if marker is None else max(published, marker["LastModified"])
        return float(latest.timestamp())

    def all_digests(self) -> Iterator[str]:
        listed = f"{self.location.prefix}blobs/"
        with self._errors(listed):
            pages = self.client.get_paginator("list_objects_v2").paginate(
                Bucket=self.location.bucket, Prefix=listed
            )
            for page in pages:
                for item in page.get("Contents", ()):
                    digest = item["Key"][len(listed) :].replace("/", "", 1)
                    if is_digest(digest):
                        yield digest

    def sweep_staging(self) -> int:
        return self.work_area.sweep_staging() + self._abort_stale_uploads()

    def temp_output_path(self, token_id: str) -> str:
        return self.work_area.temp_output_path(token_id)

    def temp_output_location(self, path: str) -> tuple[str, str]:
        return self.work_area.temp_output_location(path)

    def discard_temp_output(self, path: str) -> None:
        self.work_area.discard_temp_output(path)

    def temp_output_folders(self) -> Iterator[TempOutputFolder]:
        return self.work_area.temp_output_folders()

    # -- publishing --------------------------------------------------------------------------

    def publish(self, staged: Path, sha256: str) -> None:
        """Upload `staged` as blob `sha256`, unless it is there already: then mark it reused,
        so that a concurrent cleanup leaves it for the row about to be committed. A blob that
        a cleanup removed between the two steps is uploaded again."""
        key = self.key_of(check_digest(sha256))
        for _attempt in range(3):
            if self._head_or_none(key) is not None:
                with self._errors(key):
                    self.client.put_object(
                        Bucket=self.location.bucket, Key=self._marker_of(sha256), Body=b""
                    )
                if self._head_or_none(key) is not None:
                    return
                continue  # removed meanwhile: upload it again
            try:
                self._upload(staged, key, sha256)
                return
            except _AlreadyThereError:
                continue  # another importer got there first: mark it reused
        raise BlobStoreUnavailableError(
            f"could not publish blob {sha256} to {self.location}: it keeps disappearing"
        )

    def _upload(self, staged: Path, key: str, sha256: str) -> None:
        size = staged.stat().st_size
        with staged.open("rb") as handle:
            if size <= self.part_bytes:
                with self._errors(key):
                    self.client.put_object(
                        Bucket=self.location.bucket,
                        Key=key,
                        Body=handle,
                        ContentLength=size,
                        IfNoneMatch="*",
                        # The store checks the bytes against their name before keeping them.
                        ChecksumSHA256=base64.b64encode(binascii.unhexlify(sha256)).decode(),
                    )
            else:
                self._upload_parts(handle, key)

    def _upload_parts(self, handle: BinaryIO, key: str) -> None:
        bucket = self.location.bucket
        with self._errors(key):
            upload_id = self.client.create_multipart_upload(Bucket=bucket, Key=key)["UploadId"]
        try:
            parts = []
            number = 1
            while chunk := handle.read(self.part_bytes):
                with self._errors(key):
                    answer = self.client.upload_part(
                        Bucket=bucket, Key=key, UploadId=upload_id, PartNumber=number, Body=chunk
                    )
                parts.append({"ETag": answer["ETag"], "PartNumber": number})
                number += 1
                del chunk
            with self._errors(key):
                self.client.complete_multipart_upload(
                    Bucket=bucket,
                    Key=key,
                    UploadId=upload_id,
                    MultipartUpload={"Parts": parts},
                    IfNoneMatch="*",
                )
        except BaseException:
            with contextlib.suppress(ClientError, BotoCoreError):
                self.client.abort_multipart_upload(Bucket=bucket, Key=key, UploadId=upload_id)
            raise

    def _abort_stale_uploads(self) -> int:
        """Abort the multipart uploads of blobs started more than the grace period ago: their
        importer died (a live one finishes well within it). Best effort: an unreachable store
        is left for the next sweep, and reported by the operation that needs it."""
        oldest_live = time.time() - self.grace_seconds
        aborted = 0
        try:
            pages = self.client.get_paginator("list_multipart_uploads").paginate(
                Bucket=self.location.bucket, Prefix=f"{self.location.prefix}blobs/"
            )
            for page in pages:
                for upload in page.get("Uploads", ()):
                    if upload["Initiated"].timestamp() < oldest_live:
                        self.client.abort_multipart_upload(
                            Bucket=self.location.bucket,
                            Key=upload["Key"],
                            UploadId=upload["UploadId"],
                        )
                        aborted += 1
        except (ClientError, BotoCoreError):
            return aborted
        return aborted

    # -- requests ----------------------------------------------------------------------------

    def _head(self, key: str, sha256: str) -> dict[str, Any]:
        answer = self._head_or_none(key)
        if answer is None:
            self._check_bucket()  # a HEAD says 404 alike for a missing bucket
            raise BlobMissingError(f"blob {sha256} is missing: it should be at {self.url_of(key)}")
        return answer

    def _check_bucket(self) -> None:
        try:
            with self._errors(self.location.prefix):
                self.client.head_bucket(Bucket=self.location.bucket)
        except _NotFoundError as error:
            raise BlobStoreUnavailableError(
                f"the blob store {self.location} cannot be used: its bucket does not exist "
                "(`agents blobs init` creates it)"
            ) from error

    def _head_or_none(self, key: str) -> dict[str, Any] | None:
        try:
            with self._errors(key):
                answer: dict[str, Any] = self.client.head_object(
                    Bucket=self.location.bucket, Key=key
                )
                return answer
        except _NotFoundError:
            return None

    def get_range(self, key: str, start: int, end: int) -> Any:
        """The streaming body of bytes `start` to `end` (inclusive) of `key`."""
        try:
            with self._errors(key):
                answer = self.client.get_object(
                    Bucket=self.location.bucket, Key=key, Range=f"bytes={start}-{end}"
                )
        except _NotFoundError as error:
            raise BlobMissingError(f"{self.url_of(key)} was removed while it was read") from error
        return answer["Body"]

    @contextlib.contextmanager
    def _errors(self, key: str) -> Iterator[None]:
        """boto3's errors become the port's: one line that names the object or the store."""
        try:
            yield
        except ClientError as error:
            code = str(error.response.get("Error", {}).get("Code", ""))
            if code in _NOT_FOUND:
                raise _NotFoundError from error
            if code in _ALREADY_THERE:  # only conditional writes fail so
                raise _AlreadyThereError from error
            if code == "NoSuchBucket":
                raise BlobStoreUnavailableError(
                    f"the blob store {self.location} cannot be used: its bucket does not exist "
                    "(`agents blobs init` creates it)"
                ) from error
            raise BlobStoreUnavailableError(
                f"the blob store {self.location} refused {self.url_of(key)}: {code} "
                f"({error.response.get('Error', {}).get('Message', '')})"
            ) from error
        except BotoCoreError as error:
            raise BlobStoreUnavailableError(
                f"the blob store {self.location} cannot be reached: {error}"
            ) from error


class _NotFoundError(Exception):
    """No such object (a HEAD's 404): the callers say which blob, and where."""


class _AlreadyThereError(Exception):
    """The conditional write found the blob there: published by another importer."""


class _RangedObject(io.RawIOBase):
    """An object read by ranged GETs: each from the current position, for the bytes asked or
    a window that doubles while the reading goes on sequentially (up to `MAX_READ_WINDOW`).
    A seek drops the open response; the next read starts a new range there."""

    def __init__(self, storage: S3BlobStorage, key: str, size: int) -> None:
        super().__init__()
        self._storage = storage
        self._key = key
        self._size = size
        self._position = 0
        self._body: Any = None
        self._body_end = 0
        self._window = FIRST_READ_WINDOW

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._size}[whence]
        target = base + offset
        if target < 0:
            raise OSError(f"negative seek position {target}")
        if target != self._position:
            self._drop_body()
            self._position = target
        return self._position

    def readinto(self, buffer: Any) -> int:
        wanted = len(buffer)
        if wanted == 0 or self._position >= self._size:
            return 0
        if self._body is None or self._position >= self._body_end:
            self._open_range(wanted)
        chunk = self._body.read(min(wanted, self._body_end - self._position))
        if not chunk:
            raise OSError(f"{self._storage.url_of(self._key)} ended before its {self._size} bytes")
        count = len(chunk)
        buffer[:count] = chunk
        self._position += count
        return count

    def _open_range(self, wanted: int) -> None:
        self._drop_body()
        length = min(max(wanted, self._window), self._size - self._position)
        self._window = min(self._window * 2, MAX_READ_WINDOW)
        end = self._position + length - 1
        self._body = self._storage.get_range(self._key, self._position, end)
        self._body_end = end + 1

    def _drop_body(self) -> None:
        if self._body is not None:
            self._body.close()
            self._body = None

    def close(self) -> None:
        self._drop_body()
        super().close()
