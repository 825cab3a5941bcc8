"""`agents blobs init` on the S3 test server (moto): it creates the blob store's missing bucket,
in the configured region, changes nothing when run again, and says in one line why it cannot
(no credentials, an endpoint that does not answer, a name that is no bucket name)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.cli_runner import Result, run
from tests.s3_buckets import s3_endpoint


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch, home: Path) -> Any:
    """The test server as the blob store's endpoint, with credentials it takes (any do); a
    client to look at what the command did."""
    endpoint = s3_endpoint()
    for name, value in (
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
        ("CLEVERAGENTS_S3_ENDPOINT_URL", endpoint),
    ):
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_REGION", raising=False)
    import boto3

    return boto3.session.Session().client("s3", endpoint_url=endpoint)


def _new_bucket_store(monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """A bucket name nobody used, configured as the blob store: its name and the store URL."""
    bucket = f"cleveragents-init-{secrets.token_hex(6)}"
    url = f"s3://{bucket}/agents"
    monkeypatch.setenv("CLEVERAGENTS_BLOB_STORE", url)
    return bucket, url


def _bucket_names(client: Any) -> set[str]:
    return {bucket["Name"] for bucket in client.list_buckets()["Buckets"]}


def _one_line(result: Result, exit_code: int) -> str:
    assert result.exit_code == exit_code, result
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


def test_init_creates_the_missing_bucket_then_changes_nothing(
    s3: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bucket, url = _new_bucket_store(monkeypatch)
    assert bucket not in _bucket_names(s3)

    first = run(capsys, "blobs", "init", "--json")
    again = run(capsys, "blobs", "init")

    assert first.exit_code == 0, first
    assert first.json() == {
        "blob_store": f"{url}/",
        "kind": "s3",
        "created": True,
        "region": "us-east-1",
    }
    assert bucket in _bucket_names(s3)
    assert again.exit_code == 0, again
    assert again.stdout == f"{url}/: the bucket is there; nothing changed\n"
    (tmp_path / "build.log").write_text("step 1 ok\n", encoding="utf-8")
    imported = run(capsys, "artifact", "import", "build.log", "--workspace", str(tmp_path))
    assert imported.exit_code == 0, imported
    keys = s3.list_objects_v2(Bucket=bucket, Prefix="agents/blobs/").get("Contents", [])
    assert len(keys) == 1


def test_a_bucket_that_is_there_is_left_as_it_is(
    s3: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bucket, _url = _new_bucket_store(monkeypatch)
    s3.create_bucket(Bucket=bucket)
    s3.put_object(Bucket=bucket, Key="kept", Body=b"x")

    result = run(capsys, "blobs", "init", "--json")

    assert result.exit_code == 0, result
    assert result.json()["created"] is False
    assert s3.get_object(Bucket=bucket, Key="kept")["Body"].read() == b"x"


def test_the_bucket_goes_in_the_configured_region(
    s3: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bucket, url = _new_bucket_store(monkeypatch)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")

    result = run(capsys, "blobs", "init")

    assert result.exit_code == 0, result
    assert result.stdout == f"{url}/: created the bucket (region eu-west-1)\n"
    assert s3.get_bucket_location(Bucket=bucket)["LocationConstraint"] == "eu-west-1"


def test_without_credentials_it_says_how_to_give_them(
    s3: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    bucket, _url = _new_bucket_store(monkeypatch)
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    empty = tmp_path / "empty"
    empty.write_text("", encoding="utf-8")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(empty))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(empty))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")

    message = _one_line(run(capsys, "blobs", "init"), 1)

    assert "no S3 credentials found" in message
    assert "AWS_ACCESS_KEY_ID" in message
    assert bucket not in _bucket_names(s3)


def test_an_endpoint_that_does_not_answer_is_one_line(
    s3: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    with socket.socket() as probe:  # bound, released, never listened on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _new_bucket_store(monkeypatch)
    monkeypatch.setenv("CLEVERAGENTS_S3_ENDPOINT_URL", f"http://127.0.0.1:{port}")

    message = _one_line(run(capsys, "blobs", "init"), 1)

    assert "cannot be reached" in message


def test_a_name_that_is_no_bucket_name_is_refused_before_asking(
    s3: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CLEVERAGENTS_BLOB_STORE", "s3://Not_A_Bucket/agents")

    message = _one_line(run(capsys, "blobs", "init"), 2)

    assert "'Not_A_Bucket' is not a bucket name" in message
    assert "Not_A_Bucket" not in _bucket_names(s3)


def test_a_store_in_a_folder_needs_nothing(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CLEVERAGENTS_BLOB_STORE", raising=False)

    result = run(capsys, "blobs", "init", "--json")

    assert result.exit_code == 0, result
    assert result.json() == {
        "blob_store": str(home / "artifacts"),
        "kind": "folder",
        "created": False,
        "region": None,
    }


def test_an_import_into_a_missing_bucket_says_how_to_create_it(
    s3: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bucket, _url = _new_bucket_store(monkeypatch)
    (tmp_path / "build.log").write_text("step 1 ok\n", encoding="utf-8")
    arguments = ("artifact", "import", "build.log", "--workspace", str(tmp_path))

    message = _one_line(run(capsys, *arguments), 1)

    assert "its bucket does not exist (`agents blobs init` creates it)" in message
    assert bucket not in _bucket_names(s3)
    assert run(capsys, "blobs", "init").exit_code == 0
    assert run(capsys, *arguments).exit_code == 0
