"""A fresh bucket on the S3-compatible test server (moto's standalone server, started by .ci/run;
``$CLEVERAGENTS_TEST_S3_ENDPOINT``). Without one the tests skip, except under CI, where they fail.

For a run by hand: ``.venv/bin/moto_server -H 127.0.0.1 -p PORT`` and
``CLEVERAGENTS_TEST_S3_ENDPOINT=http://127.0.0.1:PORT``.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from typing import Any

import pytest

S3_ENDPOINT_VARIABLE = "CLEVERAGENTS_TEST_S3_ENDPOINT"


@dataclass(frozen=True)
class S3Bucket:
    endpoint: str
    name: str
    client: Any

    def url(self, prefix: str = "store") -> str:
        return f"s3://{self.name}/{prefix}"

    def keys(self, prefix: str = "") -> list[str]:
        answer = self.client.list_objects_v2(Bucket=self.name, Prefix=prefix)
        return [item["Key"] for item in answer.get("Contents", ())]

    def body(self, key: str) -> bytes:
        data: bytes = self.client.get_object(Bucket=self.name, Key=key)["Body"].read()
        return data


def s3_endpoint() -> str:
    endpoint = os.environ.get(S3_ENDPOINT_VARIABLE)
    if endpoint:
        return endpoint
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI is set but {S3_ENDPOINT_VARIABLE} is not: run the suite through .ci/run")
    pytest.skip(f"no S3 test server: set {S3_ENDPOINT_VARIABLE} (see .ci/run)")


# Named apart from the fixtures (name=...), so that a test module imports them without its
# parameters shadowing the import.
@pytest.fixture(name="bucket")
def bucket_fixture(monkeypatch: pytest.MonkeyPatch) -> S3Bucket:
    """A new bucket; the environment's AWS credentials are the test server's (any will do)."""
    endpoint = s3_endpoint()
    for name, value in (
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
    ):
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    import boto3

    client = boto3.session.Session().client("s3", endpoint_url=endpoint)
    name = f"cleveragents-{secrets.token_hex(6)}"
    client.create_bucket(Bucket=name)
    return S3Bucket(endpoint, name, client)


@pytest.fixture(name="s3_store")
def s3_store_fixture(bucket: S3Bucket, monkeypatch: pytest.MonkeyPatch) -> S3Bucket:
    """The bucket configured as the blob store of every store opened in the test."""
    monkeypatch.setenv("CLEVERAGENTS_BLOB_STORE", bucket.url())
    monkeypatch.setenv("CLEVERAGENTS_S3_ENDPOINT_URL", bucket.endpoint)
    return bucket
