"""Names that hold a credential keyword (`secret`, `token`, `api_key`, `passphrase`) but do not
name a credential. Each was found in ordinary program text (an installed site-packages):

- A type path: `"AWS::ApiGateway::ApiKey": "b899a0d240b53d9d"` (a CloudFormation resource type
  mapped to a schema hash). A name after `::` is a member of a namespace, not a variable.
- A resource name inside an ARN (`arn:` then colon-separated fields):
  `arn:aws:secretsmanager:us-west-2:123456789012:secret:MyTestDatabaseSecret-a1b2c3` names a
  secret, it does not assign one.
- A pagination or concurrency token: `"input_token": "Marker"`, `"output_token":
  "Jobs[-1].JobId"`, `self.update_token = "1a2b3c4d-..."`. It says where a listing resumes or
  which version an update applies to; it grants nothing.
- A value that is the name itself: `passphrase=passphrase` passes a variable on.
"""

from __future__ import annotations

import re

# The bytes of a name in code or configuration (`self.update_token`: the name is `update_token`).
_NAME_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_MAX_NAME_BYTES = 64
# `arn:partition:service:region:account:` and any resource path after it, up to the keyword:
# fields of ARN characters (`*` for a wildcard, `${aws:PrincipalAccount}` for a policy
# variable), each ended by `:` or `/`; at least three.
_ARN_PREFIX = re.compile(rb"arn:(?:[A-Za-z0-9*._!+=,@${}-]*[:/]){3,24}")
_ARN_REACH_BYTES = 256
# The word before `token` in the name of a token that only marks a place or a version.
_PLACE_MARKING_WORDS = frozenset(
    {
        b"next",
        b"prev",
        b"previous",
        b"page",
        b"continuation",
        b"pagination",
        b"input",
        b"output",
        b"update",
        b"sync",
        b"resume",
        b"marker",
        b"cursor",
    }
)
_NAME_WORDS = re.compile(rb"[_-]")


def name_span(original: bytes, keyword_start: int) -> tuple[int, int]:
    """The span of the name the keyword at `keyword_start` belongs to: `update_token` in
    `self.update_token = ...`, `ApiKey` in `AWS::ApiGateway::ApiKey`."""
    # Up to `_MAX_NAME_BYTES` of name bytes on each side, stripped off in C.
    before = original[max(0, keyword_start - _MAX_NAME_BYTES) : keyword_start]
    after = original[keyword_start : keyword_start + _MAX_NAME_BYTES]
    start = keyword_start - (len(before) - len(before.rstrip(_NAME_BYTES)))
    end = keyword_start + (len(after) - len(after.lstrip(_NAME_BYTES)))
    return start, end


def is_type_path(original: bytes, name_start: int) -> bool:
    """`AWS::SecretsManager::Secret`: the name is the last member of a `::` path."""
    return original[max(0, name_start - 2) : name_start] == b"::"


def is_in_arn(original: bytes, keyword_start: int) -> bool:
    """`arn:aws:secretsmanager:*:*:secret:Name`: the keyword is a field of an ARN."""
    floor = max(0, keyword_start - _ARN_REACH_BYTES)
    arn = original.rfind(b"arn:", floor, keyword_start)
    return (
        arn != -1
        and not original[arn - 1 : arn].isalnum()  # `learn:` is no ARN
        and _ARN_PREFIX.fullmatch(original, arn, keyword_start) is not None
    )


def marks_a_place(name: bytes) -> bool:
    """`next_token`, `page_token`, `update_token`: a pagination or concurrency token."""
    words = _NAME_WORDS.split(name.lower())
    return len(words) >= 2 and words[-1] == b"token" and words[-2] in _PLACE_MARKING_WORDS


def is_not_a_credential_name(original: bytes, keyword_start: int) -> bool:
    """Whether the name holding the keyword at `keyword_start` is a type path, an ARN's field
    or a pagination or concurrency token."""
    start, end = name_span(original, keyword_start)
    return (
        is_type_path(original, start)
        or is_in_arn(original, keyword_start)
        or marks_a_place(original[start:end])
    )


def is_the_name_itself(original: bytes, keyword_start: int, value: bytes) -> bool:
    """`passphrase=passphrase`: the value is a variable of the same name."""
    start, end = name_span(original, keyword_start)
    return value.lower() == original[start:end].lower()
