"""Blob store locations as written in CLEVERAGENTS_BLOB_STORE and in the database's record."""

from __future__ import annotations

from pathlib import Path

import pytest

from cleveragents.adapters.blobs.blob_store_locations import (
    DEFAULT_BLOB_GRACE_SECONDS,
    S3Location,
    blob_grace_seconds,
    parse_blob_store,
)
from cleveragents.domain.errors import InvalidInputError


@pytest.mark.parametrize(
    ("text", "bucket", "prefix"),
    [
        ("s3://artifacts", "artifacts", ""),
        ("s3://artifacts/", "artifacts", ""),
        ("s3://artifacts/team/prod", "artifacts", "team/prod/"),
        ("s3://artifacts//team/prod/", "artifacts", "team/prod/"),
    ],
)
def test_an_s3_location_is_a_bucket_and_a_prefix_ending_in_a_slash(
    text: str, bucket: str, prefix: str
) -> None:
    location = parse_blob_store(text, "CLEVERAGENTS_BLOB_STORE")
    assert location == S3Location(bucket, prefix)
    assert parse_blob_store(str(location), "the record") == location  # written back unchanged


def test_a_folder_is_made_absolute_from_its_base(tmp_path: Path) -> None:
    assert parse_blob_store("artifacts", "the record", tmp_path) == tmp_path / "artifacts"
    assert parse_blob_store(str(tmp_path / "x"), "the record", Path("/elsewhere")) == tmp_path / "x"
    assert parse_blob_store("rel", "env") == Path.cwd() / "rel"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("gs://bucket", "is not a blob store"),
        ("file:///tmp/x", "is not a blob store"),
        ("s3://", "names no bucket"),
        ("s3:///prefix", "names no bucket"),
        ("  ", "is empty"),
    ],
)
def test_a_bad_location_is_refused_naming_its_source(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message) as caught:
        parse_blob_store(text, "CLEVERAGENTS_BLOB_STORE")
    assert str(caught.value).startswith("CLEVERAGENTS_BLOB_STORE")


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(None, DEFAULT_BLOB_GRACE_SECONDS), ("", 3600.0), ("90", 90.0), ("0", 0.0)],
)
def test_the_grace_period_defaults_to_an_hour(value: str | None, seconds: float) -> None:
    environ = {} if value is None else {"CLEVERAGENTS_BLOB_GRACE_SECONDS": value}
    assert blob_grace_seconds(environ) == seconds


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "an hour"])
def test_a_bad_grace_period_is_refused(value: str) -> None:
    with pytest.raises(InvalidInputError, match="not a number of seconds >= 0"):
        blob_grace_seconds({"CLEVERAGENTS_BLOB_GRACE_SECONDS": value})
