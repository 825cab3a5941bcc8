"""Artifact blobs on an S3-compatible server (moto's standalone server on 127.0.0.1): the
artifact store works on it as on a folder, writes are conditional (a blob is never
overwritten), transfers are streamed, and cleanup removes nothing younger than the grace."""

from __future__ import annotations

import hashlib
import tracemalloc
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cleveragents.adapters.blobs.blob_store_locations import S3Location
from cleveragents.adapters.blobs.s3_blob_storage import S3BlobStorage, make_s3_client
from cleveragents.application.ports.blob_storage import BlobMissingError, BlobStoreUnavailableError
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.container import Container, build_container
from tests.fakes import FixedClock
from tests.s3_buckets import S3Bucket, bucket_fixture, s3_store_fixture  # noqa: F401

PART = 5 << 20  # S3's smallest part: a blob of a few parts stays quick to move


@pytest.fixture
def clock() -> FixedClock:
    # The bucket's clock judges blob ages: start from the real time.
    return FixedClock(datetime.now(UTC))


@pytest.fixture
def container(
    database_url: str, home: Path, s3_store: S3Bucket, clock: FixedClock
) -> Iterator[Container]:
    built = build_container(database_url, home=home)
    with built.clock.override(clock):
        yield built
    built.store().dispose()


@pytest.fixture
def store(container: Container) -> ArtifactStore:
    built: ArtifactStore = container.artifact_store()
    return built


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def _blob_keys(bucket: S3Bucket) -> list[str]:
    return bucket.keys("store/blobs/")


def _storage(bucket: S3Bucket, tmp_path: Path, **options: Any) -> S3BlobStorage:
    options.setdefault("grace_seconds", 3600.0)
    return S3BlobStorage(
        make_s3_client(bucket.endpoint),
        S3Location(bucket.name, "raw/"),
        tmp_path / "work",
        **options,
    )


def _publish(storage: S3BlobStorage, data: bytes) -> str:
    digest = hashlib.sha256(data).hexdigest()
    writer = storage.begin()
    writer.write(data)
    writer.commit(digest)
    return digest


def test_an_import_is_an_object_and_reads_back_by_preview_range_and_lines(
    store: ArtifactStore, container: Container, s3_store: S3Bucket, workspace: Path, home: Path
) -> None:
    lines = [f"line {n} of the build log\n" for n in range(1, 2001)]
    data = "".join(lines).encode()
    (workspace / "build.log").write_bytes(data)
    result = store.import_file(str(workspace), "build.log")
    assert result.preview is not None
    digest = hashlib.sha256(data).hexdigest()
    assert result.artifact.sha256 == digest
    assert _blob_keys(s3_store) == [f"store/blobs/{digest[:2]}/{digest[2:]}"]
    assert s3_store.body(_blob_keys(s3_store)[0]) == data
    # Nothing published on the local disk: only the (now empty) staging folder is local.
    local = list((home / "artifacts").rglob("*"))
    assert [p for p in local if p.is_file()] == []
    artifact_id = result.artifact.id
    preview = store.preview(artifact_id)
    assert preview.head.startswith("line 1 of the build log\n")
    assert preview.tail.endswith("line 2000 of the build log\n")
    assert store.read(artifact_id, offset=1000, length=300) == data[1000:1300]
    assert store.read(artifact_id, offset=len(data) - 5, length=100) == data[-5:]
    assert store.read(artifact_id, offset=len(data) + 10, length=100) == b""
    assert store.read_lines(artifact_id, 1500, 1502) == "".join(lines[1499:1502]).encode()
    assert store.read_lines(artifact_id, 1999, 5000) == "".join(lines[1998:]).encode()


def test_the_same_content_twice_is_one_object(
    store: ArtifactStore, s3_store: S3Bucket, workspace: Path
) -> None:
    (workspace / "a.txt").write_text("the same output\n")
    (workspace / "b.txt").write_text("the same output\n")
    first = store.import_file(str(workspace), "a.txt").artifact
    second = store.import_file(str(workspace), "b.txt").artifact
    assert first.id != second.id
    assert first.sha256 == second.sha256
    assert len(_blob_keys(s3_store)) == 1
    # The second import marked the blob reused instead of rewriting it.
    digest = first.sha256
    assert digest is not None
    assert s3_store.keys("store/reused/") == [f"store/reused/{digest[:2]}/{digest[2:]}"]


def test_the_server_refuses_to_overwrite_under_if_none_match(bucket: S3Bucket) -> None:
    """What the adapter relies on: moto 5.2.5 (like S3) answers 412 to a second conditional
    PutObject and CompleteMultipartUpload of a key."""
    from botocore.exceptions import ClientError

    bucket.client.put_object(Bucket=bucket.name, Key="k", Body=b"first", IfNoneMatch="*")
    with pytest.raises(ClientError, match="PreconditionFailed"):
        bucket.client.put_object(Bucket=bucket.name, Key="k", Body=b"second", IfNoneMatch="*")
    upload = bucket.client.create_multipart_upload(Bucket=bucket.name, Key="k")["UploadId"]
    part = bucket.client.upload_part(
        Bucket=bucket.name, Key="k", UploadId=upload, PartNumber=1, Body=b"third"
    )
    with pytest.raises(ClientError, match="PreconditionFailed"):
        bucket.client.complete_multipart_upload(
            Bucket=bucket.name,
            Key="k",
            UploadId=upload,
            MultipartUpload={"Parts": [{"ETag": part["ETag"], "PartNumber": 1}]},
            IfNoneMatch="*",
        )
    assert bucket.body("k") == b"first"


class _RacedStorage(S3BlobStorage):
    """Another importer publishes the same key between this one's HEAD and its write: the
    first HEAD of each key says "not there", whatever is there."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.raced: set[str] = set()

    def _head_or_none(self, key: str) -> dict[str, Any] | None:
        if key.endswith(tuple("0123456789abcdef")) and key not in self.raced:
            self.raced.add(key)
            return None
        return super()._head_or_none(key)


@pytest.mark.parametrize("size", [1000, 2 * PART + 123], ids=["one request", "multipart"])
def test_a_blob_published_meanwhile_is_kept_and_counts_as_published(
    bucket: S3Bucket, tmp_path: Path, size: int
) -> None:
    data = (b"0123456789abcdef" * (size // 16 + 1))[:size]
    digest = hashlib.sha256(data).hexdigest()
    storage = _RacedStorage(
        make_s3_client(bucket.endpoint),
        S3Location(bucket.name, "raw/"),
        tmp_path / "work",
        grace_seconds=3600.0,
        part_bytes=PART,
    )
    key = storage.key_of(digest)
    # The other importer's object (its bytes told apart here, to see which one stays).
    bucket.client.put_object(Bucket=bucket.name, Key=key, Body=b"published first")
    writer = storage.begin()
    writer.write(data)
    writer.commit(digest)  # the conditional write is refused, and that is success
    assert key in storage.raced
    assert bucket.body(key) == b"published first"
    assert bucket.client.list_multipart_uploads(Bucket=bucket.name).get("Uploads", []) == []
    assert list((tmp_path / "work" / "staging").iterdir()) == []


def test_a_large_blob_is_streamed_both_ways_in_bounded_memory(
    bucket: S3Bucket, tmp_path: Path
) -> None:
    storage = _storage(bucket, tmp_path, part_bytes=PART)
    chunk = b"".join(b"%07d INFO a worker finished its batch\n" % n for n in range(25_000))
    copies = 48  # about 48 MiB, written a chunk at a time
    digest = hashlib.sha256()
    tracemalloc.start()
    try:
        writer = storage.begin()
        for _ in range(copies):
            writer.write(chunk)
            digest.update(chunk)
        writer.commit(digest.hexdigest())
        _, upload_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        read_back = hashlib.sha256()
        with storage.open(digest.hexdigest()) as handle:
            while piece := handle.read(1 << 20):
                read_back.update(piece)
        _, download_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    total = len(chunk) * copies
    assert total > 45 << 20
    assert storage.size(digest.hexdigest()) == total
    assert read_back.hexdigest() == digest.hexdigest()
    # A part (5 MiB) and its request in flight, not the blob (48 MiB).
    assert upload_peak < 16 << 20, upload_peak
    assert download_peak < 16 << 20, download_peak
    [upload] = bucket.keys("raw/blobs/")
    parts = -(-total // PART)
    assert bucket.client.head_object(Bucket=bucket.name, Key=upload)["ETag"].endswith(f'-{parts}"')


def test_cleanup_keeps_a_young_orphan_and_removes_an_old_one(
    store: ArtifactStore,
    container: Container,
    s3_store: S3Bucket,
    clock: FixedClock,
    workspace: Path,
) -> None:
    (workspace / "kept.txt").write_text("a stored artifact\n")
    kept = store.import_file(str(workspace), "kept.txt").artifact
    orphan = _publish(container.blob_storage(), b"an importer died before its row\n")
    assert len(_blob_keys(s3_store)) == 2
    clock.advance(timedelta(minutes=30))  # younger than the hour of grace
    report = store.cleanup()
    assert report.orphan_blobs == 0
    assert len(_blob_keys(s3_store)) == 2
    clock.advance(timedelta(hours=2))
    report = store.cleanup()
    assert report.orphan_blobs == 1
    assert kept.sha256 is not None
    assert _blob_keys(s3_store) == [f"store/blobs/{kept.sha256[:2]}/{kept.sha256[2:]}"]
    with pytest.raises(BlobMissingError, match=f"blob {orphan} is missing: it should be at s3://"):
        container.blob_storage().open(orphan)


def test_a_reused_blob_gets_a_marker_that_goes_with_it(
    container: Container, s3_store: S3Bucket
) -> None:
    """Reuse cannot touch the blob's LastModified without rewriting it: a marker object says
    when it was last reused (its age counts for cleanup), and is deleted with the blob."""
    blobs = container.blob_storage()
    digest = _publish(blobs, b"published, then reused\n")
    assert s3_store.keys("store/reused/") == []
    _publish(blobs, b"published, then reused\n")
    marker = f"store/reused/{digest[:2]}/{digest[2:]}"
    assert s3_store.keys("store/reused/") == [marker]
    reused_at = s3_store.client.head_object(Bucket=s3_store.name, Key=marker)["LastModified"]
    assert blobs.modified_at(digest) == reused_at.timestamp()
    blobs.delete(digest)
    assert s3_store.keys("store/") == []


def test_the_grace_period_is_configurable(
    database_url: str,
    home: Path,
    s3_store: S3Bucket,
    clock: FixedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLEVERAGENTS_BLOB_GRACE_SECONDS", "60")
    built = build_container(database_url, home=home)
    try:
        with built.clock.override(clock):
            _publish(built.blob_storage(), b"an orphan\n")
            clock.advance(timedelta(minutes=5))
            assert built.artifact_store().cleanup().orphan_blobs == 1
        assert _blob_keys(s3_store) == []
    finally:
        built.store().dispose()


def test_unfinished_uploads_older_than_the_grace_are_aborted(
    bucket: S3Bucket, tmp_path: Path
) -> None:
    """moto dates every multipart upload in 2010, so only the old case can be shown here."""
    storage = _storage(bucket, tmp_path)
    bucket.client.create_multipart_upload(Bucket=bucket.name, Key="raw/blobs/ab/cdef")
    bucket.client.create_multipart_upload(Bucket=bucket.name, Key="elsewhere/ab/cdef")
    assert storage.sweep_staging() == 1
    [left] = bucket.client.list_multipart_uploads(Bucket=bucket.name)["Uploads"]
    assert left["Key"] == "elsewhere/ab/cdef"


def test_an_unreachable_endpoint_and_a_missing_bucket_are_one_line(
    bucket: S3Bucket, tmp_path: Path
) -> None:
    missing = S3BlobStorage(
        make_s3_client(bucket.endpoint),
        S3Location("no-such-bucket-here", ""),
        tmp_path / "work",
        grace_seconds=3600.0,
    )
    with pytest.raises(BlobStoreUnavailableError, match="its bucket does not exist") as caught:
        _publish(missing, b"x")
    assert "\n" not in str(caught.value)
    with pytest.raises(BlobStoreUnavailableError, match="its bucket does not exist"):
        missing.open("0" * 64)  # not "blob missing": a HEAD's 404 says nothing of the bucket
    closed = S3BlobStorage(
        make_s3_client("http://127.0.0.1:9"),
        S3Location(bucket.name, ""),
        tmp_path / "work2",
        grace_seconds=3600.0,
    )
    with pytest.raises(BlobStoreUnavailableError, match="cannot be reached") as caught:
        closed.size("0" * 64)
    assert "\n" not in str(caught.value)
    assert closed.sweep_staging() == 0  # housekeeping waits for the next time
