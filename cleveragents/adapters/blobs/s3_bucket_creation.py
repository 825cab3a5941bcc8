"""Creating the bucket of an S3 blob store when it is missing (`agents blobs init`).

The artifact store never creates a bucket by itself: a typo in ``CLEVERAGENTS_BLOB_STORE`` would
otherwise make a bucket nobody looks in. Asked to, this looks for the bucket (HeadBucket) and
creates it only when the server says there is none; a bucket that is there, or that another
process creates meanwhile, is left as it is, so running it again changes nothing.

The bucket is created in the client's region (boto3's usual chain: ``AWS_REGION``,
``AWS_DEFAULT_REGION``, the profile): outside us-east-1, S3 wants that region named again as the
bucket's location constraint. Every refusal is one line saying what to change: credentials
missing or refused, a region that does not match, no right to create buckets, a name that is
taken or not a bucket name.
"""

from __future__ import annotations

import re
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError

from cleveragents.adapters.blobs.blob_store_locations import S3Location
from cleveragents.application.ports.blob_storage import BlobStoreUnavailableError
from cleveragents.domain.errors import InvalidInputError

# us-east-1 is S3's default location: naming it as a constraint is refused.
_DEFAULT_REGIONS = frozenset({"us-east-1", "aws-global"})
_MISSING = frozenset({"404", "NoSuchBucket", "NotFound"})
_OWNED_ALREADY = "BucketAlreadyOwnedByYou"
_CREDENTIALS_REFUSED = frozenset(
    {"InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken"}
)
_WRONG_REGION = frozenset(
    {
        "301",
        "PermanentRedirect",
        "AuthorizationHeaderMalformed",
        "IllegalLocationConstraintException",
        "InvalidLocationConstraint",
    }
)
_FORBIDDEN = frozenset({"403", "AccessDenied", "AllAccessDisabled"})
# S3's rules for a new bucket's name (older buckets may have others: only checked on creation).
_BUCKET_NAME = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
_CREDENTIALS_HINT = (
    "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run with an instance role"
)
_REGION_HINT = "set AWS_REGION to the region the bucket is (or should be) in"


def region_of(client: Any) -> str:
    """The region the client signs for, and where a bucket it creates goes."""
    region = getattr(client.meta, "region_name", None)
    return str(region) if region else "us-east-1"


def create_bucket_if_missing(client: Any, location: S3Location) -> bool:
    """Make sure `location`'s bucket exists; True when this call created it."""
    if _bucket_exists(client, location):
        return False
    _check_bucket_name(location)
    region = region_of(client)
    options: dict[str, Any] = {}
    if region not in _DEFAULT_REGIONS:
        options["CreateBucketConfiguration"] = {"LocationConstraint": region}
    try:
        client.create_bucket(Bucket=location.bucket, **options)
    except ClientError as error:
        if _code(error) == _OWNED_ALREADY:
            return False  # created meanwhile by another process with these credentials
        raise _refused(error, location, region, "create") from error
    except BotoCoreError as error:
        raise _unreachable(error, location) from error
    return True


def _bucket_exists(client: Any, location: S3Location) -> bool:
    try:
        client.head_bucket(Bucket=location.bucket)
    except ClientError as error:
        if _code(error) in _MISSING:
            return False
        raise _refused(error, location, region_of(client), "find") from error
    except BotoCoreError as error:
        raise _unreachable(error, location) from error
    return True


def _check_bucket_name(location: S3Location) -> None:
    name = location.bucket
    if _BUCKET_NAME.fullmatch(name) is None or ".." in name:
        raise InvalidInputError(
            f"cannot create the bucket of the blob store {location}: {name!r} is not a bucket "
            "name (3 to 63 lowercase letters, digits, dots and hyphens, starting and ending "
            "with a letter or digit)"
        )


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _refused(
    error: ClientError, location: S3Location, region: str, doing: str
) -> BlobStoreUnavailableError:
    code = _code(error)
    said = str(error.response.get("Error", {}).get("Message", "")).strip()
    refused = f"{code} ({said})" if said and said != code else code
    where = f"cannot {doing} the bucket {location.bucket} of the blob store {location}"
    if code in _CREDENTIALS_REFUSED:
        return BlobStoreUnavailableError(
            f"{where}: the server refused the credentials, {refused}: {_CREDENTIALS_HINT}"
        )
    if code in _WRONG_REGION:
        return BlobStoreUnavailableError(
            f"{where}: the region {region} does not match, {refused}: {_REGION_HINT}"
        )
    if code == "BucketAlreadyExists":
        return BlobStoreUnavailableError(
            f"{where}: the name is taken by another account (bucket names are shared by every "
            "account): choose another bucket in CLEVERAGENTS_BLOB_STORE"
        )
    if code in _FORBIDDEN:
        need = "s3:CreateBucket" if doing == "create" else "s3:ListBucket on it"
        return BlobStoreUnavailableError(
            f"{where}: access denied, {refused}: the credentials need {need} (or the bucket "
            "belongs to another account)"
        )
    return BlobStoreUnavailableError(f"{where}: {refused}")


def _unreachable(error: BotoCoreError, location: S3Location) -> BlobStoreUnavailableError:
    if isinstance(error, NoCredentialsError):
        return BlobStoreUnavailableError(
            f"cannot reach the blob store {location}: no S3 credentials found: {_CREDENTIALS_HINT}"
        )
    return BlobStoreUnavailableError(f"the blob store {location} cannot be reached: {error}")
