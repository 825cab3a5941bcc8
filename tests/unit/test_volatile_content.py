"""Volatile content: dates, times and random identifiers found; versions, ports and names not."""

from __future__ import annotations

import random
import string

import pytest

from cleveragents.domain.volatile_content import VolatileKind, find_volatile
from tests.volatile_samples import kinds

BASE64URL = string.ascii_letters + string.digits + "-_"


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        # ISO 8601
        ("released 2026-11-30.", VolatileKind.DATE, "2026-11-30"),
        ('{"date":"2026-11-30"}', VolatileKind.DATE, "2026-11-30"),
        ("at 2026-11-30T13:45:02Z", VolatileKind.TIMESTAMP, "2026-11-30T13:45:02Z"),
        (
            "at 2026-11-30T13:45:02.123+01:00",
            VolatileKind.TIMESTAMP,
            "2026-11-30T13:45:02.123+01:00",
        ),
        ("at 2026-11-30 13:45 UTC", VolatileKind.TIMESTAMP, "2026-11-30 13:45 UTC"),
        ("build 20261130T134502Z", VolatileKind.TIMESTAMP, "20261130T134502Z"),
        # numeric dates with a four-digit year
        ("on 2026/11/30", VolatileKind.DATE, "2026/11/30"),
        ("on 11/30/2026", VolatileKind.DATE, "11/30/2026"),
        ("on 30/11/2026", VolatileKind.DATE, "30/11/2026"),
        ("am 30.11.2026", VolatileKind.DATE, "30.11.2026"),
        ("on 30-11-2026", VolatileKind.DATE, "30-11-2026"),
        # written dates
        ("due Nov 30, 2026.", VolatileKind.DATE, "Nov 30, 2026"),
        ("due November 30th, 2026", VolatileKind.DATE, "November 30th, 2026"),
        ("due 30 November 2026", VolatileKind.DATE, "30 November 2026"),
        ("since November 2026", VolatileKind.DATE, "November 2026"),
        ("DUE NOV 30 2026", VolatileKind.DATE, "NOV 30 2026"),
        (
            "Date: Mon, 30 Nov 2026 13:45:02 +0000",
            VolatileKind.TIMESTAMP,
            "Mon, 30 Nov 2026 13:45:02 +0000",
        ),
        ("Nov 30, 2026 at 1:45 PM EST", VolatileKind.TIMESTAMP, "Nov 30, 2026 at 1:45 PM EST"),
        # times of day
        ("started 13:45:02", VolatileKind.TIME, "13:45:02"),
        ("started 13:45:02.250Z", VolatileKind.TIME, "13:45:02.250Z"),
        ("at 9:30 pm", VolatileKind.TIME, "9:30 pm"),
        ("at 13:45 UTC", VolatileKind.TIME, "13:45 UTC"),
        # identifiers
        (
            "run 123e4567-e89b-12d3-a456-426614174000",
            VolatileKind.UUID,
            "123e4567-e89b-12d3-a456-426614174000",
        ),
        ("plan 01ARZ3NDEKTSV4RRFFQ69G5FAV", VolatileKind.ULID, "01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        (
            "trace 4bf92f3577b34da6a3ce929d0e0e4736",
            VolatileKind.HEX_ID,
            "4bf92f3577b34da6a3ce929d0e0e4736",
        ),
        (
            "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            VolatileKind.HEX_ID,
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ),
        (
            "request req_011CY2x4Fj6nJjCj5MmZAqUU",
            VolatileKind.RANDOM_TOKEN,
            "req_011CY2x4Fj6nJjCj5MmZAqUU",
        ),
        ("session q8ZtX3vLp9Rk2WmN7sYb4HcQ", VolatileKind.RANDOM_TOKEN, "q8ZtX3vLp9Rk2WmN7sYb4HcQ"),
    ],
)
def test_volatile_content_is_found(text: str, kind: VolatileKind, value: str) -> None:
    assert kinds(text) == [(kind, value)]


@pytest.mark.parametrize(
    ("text", "context"),
    [
        ("created: 1764510302", ""),
        ("Built at 1764510302123.", ""),
        ('{"expires_at":1764510302}', ""),
        ("1764510302", "createdAt"),
        ("1764510302.5", "timestamp"),
    ],
)
def test_an_epoch_number_in_a_date_context_is_a_timestamp(text: str, context: str) -> None:
    assert [kind for kind, _ in kinds(text, context)] == [VolatileKind.EPOCH_TIMESTAMP]


@pytest.mark.parametrize(
    "text",
    [
        "Python 3.11.2 and pip 24.0",
        "listen on port 8080, then localhost:5432",
        "a 16:9 screen; the build takes 13:45 on a bad day",
        "fe80::1:23:45 and 00:11:22:33:44:55",  # IPv6 and MAC addresses
        "certifi 2024.8.30 (CalVer)",
        "gpt-4o-mini-2024-07-18 and claude-sonnet-4-5-20250929",  # dates inside model names
        "release-2026-11-30 is the tag",
        "freeze every Dec 15; supported since 2019",
        "limit 1000000000 bytes; call 5551234567",  # big numbers without a date context
        "created: 42",
        "commit abc1234 and abcdef0123456789",  # short hashes
        "DeepSeek-R1-Distill-Llama-70B, Qwen3-Next-80B-A3B-Instruct, 5-Super-VL-120B-A12B",
        "OAuth2ClientV3Handler, openTypeOS2CodePageRanges, ThisIsAVeryLongCamelCaseName2X",
        "test_every_command_help_is_plain_text",
        "https://github.com/pallets/click/blob/main/src/click/core.py",
        "cleveragents/application/services/prefixes/stable_prefix_builder.py",
        "may 2026 be a good year",  # lower-case month names are words
        "the nil value 0000",
    ],
)
def test_stable_text_is_not_refused(text: str) -> None:
    assert kinds(text) == []


def test_identifiers_are_shown_shortened_and_dates_whole() -> None:
    [uuid_finding] = find_volatile("id 123e4567-e89b-12d3-a456-426614174000")
    assert uuid_finding.excerpt == "123e4567…"
    assert uuid_finding.describe() == (
        "a UUID ('123e4567…') cannot be in a stable prefix: it differs from run to run and "
        "breaks the cache"
    )
    [date_finding] = find_volatile("2026-11-30")
    assert date_finding.describe() == (
        "a date ('2026-11-30') cannot be in a stable prefix: it changes and breaks the cache"
    )


def test_findings_are_in_order_with_their_lines_and_do_not_overlap() -> None:
    text = "first line\nat 13:45:02 on 2026-11-30T10:00:00Z\nrun 01ARZ3NDEKTSV4RRFFQ69G5FAV"
    found = find_volatile(text)
    assert [(f.kind, f.line) for f in found] == [
        (VolatileKind.TIME, 2),
        (VolatileKind.TIMESTAMP, 2),  # not also a date and a time
        (VolatileKind.ULID, 3),
    ]


def test_out_of_range_dates_are_not_dates() -> None:
    assert kinds("2026-13-30 and 2026-11-32 and 1066-10-14 and 13/13/2026") == []


def _random_token(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(BASE64URL) for _ in range(length))


def test_most_random_tokens_are_found() -> None:
    # The rule trades some misses for no false refusals (docs/stable-prefix.md); measured on a
    # fixed sample so the test is deterministic.
    rng = random.Random(20261130)
    tokens = [_random_token(rng, 32) for _ in range(400)]
    found = sum(bool(find_volatile(f"token {token}")) for token in tokens)
    assert found / len(tokens) >= 0.9
