"""What `agents blobs init` says when S3 refuses: each refusal S3 documents for HeadBucket and
CreateBucket, given by botocore's own Stubber to a real client (no request leaves), becomes one
line saying what to change. (The bucket really created: tests/integration/test_blobs_init.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from botocore.stub import Stubber

from cleveragents.adapters.blobs.blob_store_locations import S3Location
from cleveragents.adapters.blobs.s3_bucket_creation import create_bucket_if_missing
from cleveragents.application.ports.blob_storage import BlobStoreUnavailableError

LOCATION = S3Location("team-artifacts", "agents/")


def _client(region: str) -> Any:
    import boto3

    return boto3.session.Session(
        aws_access_key_id="stubbed", aws_secret_access_key="stubbed", region_name=region
    ).client("s3")


@pytest.fixture
def client() -> Any:
    return _client("eu-west-1")


def _missing(stubber: Stubber) -> None:
    stubber.add_client_error("head_bucket", service_error_code="404", http_status_code=404)


def test_a_missing_bucket_is_created_with_the_region_as_its_location(client: Any) -> None:
    with Stubber(client) as stubber:
        _missing(stubber)
        stubber.add_response(
            "create_bucket",
            {},
            {
                "Bucket": "team-artifacts",
                "CreateBucketConfiguration": {"LocationConstraint": "eu-west-1"},
            },
        )
        assert create_bucket_if_missing(client, LOCATION) is True
        stubber.assert_no_pending_responses()


def test_us_east_1_names_no_location() -> None:
    east = _client("us-east-1")
    with Stubber(east) as stubber:
        _missing(stubber)
        stubber.add_response("create_bucket", {}, {"Bucket": "team-artifacts"})
        assert create_bucket_if_missing(east, LOCATION) is True


def test_a_bucket_created_meanwhile_by_the_same_account_counts_as_there(client: Any) -> None:
    with Stubber(client) as stubber:
        _missing(stubber)
        stubber.add_client_error(
            "create_bucket", service_error_code="BucketAlreadyOwnedByYou", http_status_code=409
        )
        assert create_bucket_if_missing(client, LOCATION) is False


@pytest.mark.parametrize(
    ("operation", "code", "status", "says"),
    [
        ("create_bucket", "AccessDenied", 403, "the credentials need s3:CreateBucket"),
        ("create_bucket", "BucketAlreadyExists", 409, "the name is taken by another account"),
        ("create_bucket", "IllegalLocationConstraintException", 400, "set AWS_REGION"),
        ("create_bucket", "InvalidAccessKeyId", 403, "the server refused the credentials"),
        ("head_bucket", "403", 403, "the credentials need s3:ListBucket on it"),
        ("head_bucket", "301", 301, "the region eu-west-1 does not match"),
        ("head_bucket", "AuthorizationHeaderMalformed", 400, "set AWS_REGION"),
        ("head_bucket", "SlowDown", 503, "SlowDown"),
    ],
)
def test_a_refusal_is_one_line_saying_what_to_change(
    client: Any, operation: str, code: str, status: int, says: str
) -> None:
    with Stubber(client) as stubber:
        if operation == "create_bucket":
            _missing(stubber)
        stubber.add_client_error(operation, service_error_code=code, http_status_code=status)
        with pytest.raises(BlobStoreUnavailableError) as refused:
            create_bucket_if_missing(client, LOCATION)

    message = str(refused.value)
    assert says in message
    assert "\n" not in message
    assert message.startswith(
        f"cannot {'create' if operation == 'create_bucket' else 'find'} the bucket "
        "team-artifacts of the blob store s3://team-artifacts/agents/: "
    )
