"""The built-in scanner's patterns: bounded widths, entropy, and what is deliberately not a secret.

Key-shaped values are assembled at run time so the repository holds no real-looking credential.
"""

from __future__ import annotations

import re

import pytest

from cleveragents.adapters.secrets.pattern_scanner import (
    CONTEXT_BYTES,
    OVERLAP_BYTES,
    PatternSecretScanner,
)
from cleveragents.adapters.secrets.secret_patterns import (
    MAX_MATCH_BYTES,
    PATTERNS,
    is_placeholder,
    shannon_entropy,
)
from cleveragents.domain.secrets import SecretFinding, SecretKind

# A value with a digit and >= 3 bits per byte, and key bodies shaped like real ones.
VALUE = "Qx7" + "vR2mK9pL" + "w4Zt"
BODY = "aB3dE5fG7hJ9kL1mN2pQ4rS6"


def _scan(text: str) -> list[SecretFinding]:
    return PatternSecretScanner().scan_text(text)


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: "+".join(p.kinds))
def test_every_pattern_is_bounded_below_the_window_overlap(pattern: object) -> None:
    regex = pattern.regex  # type: ignore[attr-defined]
    low, high = re._parser.parse(regex.pattern, regex.flags).getwidth()  # type: ignore[attr-defined]
    assert 0 < low <= high <= MAX_MATCH_BYTES < OVERLAP_BYTES
    assert CONTEXT_BYTES >= 1


def test_every_kind_but_other_has_a_pattern() -> None:
    covered = {kind for pattern in PATTERNS for kind in pattern.kinds}
    assert covered == set(SecretKind) - {SecretKind.OTHER}


def test_case_insensitive_patterns_are_written_in_lower_case() -> None:
    for pattern in PATTERNS:
        if pattern.lower:
            source = pattern.regex.pattern.replace(b"(?P<", b"(?<")  # named groups aside
            assert source == source.lower()


@pytest.mark.parametrize(
    ("value", "bits"), [(b"", 0.0), (b"aaaa", 0.0), (b"abab", 1.0), (b"abcd", 2.0)]
)
def test_shannon_entropy(value: bytes, bits: float) -> None:
    assert shannon_entropy(value) == pytest.approx(bits)


@pytest.mark.parametrize(
    "value",
    [
        b"${DB_PASSWORD}",
        b"$TOKEN",
        b"%s",
        b"{password}",
        b"<password>",
        b"****",
        b"xxxxxxxx",
        b"password",
        b"null",
        b"changeme123",
        b"your_token_here",
    ],
)
def test_placeholders(value: bytes) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize("value", [VALUE.encode(), b"hunter2!Rocks"])
def test_not_placeholders(value: bytes) -> None:
    assert not is_placeholder(value)


@pytest.mark.parametrize(
    "line",
    [
        "password: str",
        "token = make_token(project)",
        "token = ReviewTokenStore.mint(project.id)",
        "token: csrfToken",
        'api_key = os.environ["API_KEY"]',
        "PWD=/home/build/projects/orders-service",
        '"password": "Wrong password for user"',
        '{"error": "invalid password", "password": null}',
        "secret=<your secret here>",
        "Authorization: Bearer $TOKEN",
        "Authorization: Bearer YOUR_API_TOKEN",
        "Authorization: Bearer <token>",
        "postgres://orders:${DB_PASSWORD}@db:5432/orders",
        "postgres://orders:***@db:5432/orders",
        "mongodb://user:password@localhost:27017",
        "git clone ssh://git@github.com/org/repo.git",
        "http://[::1]:8080/health",
        "mypassword=" + VALUE,
        "value: pk_live_" + BODY,  # publishable Stripe keys are public
        "value: AKIA" + "IOSFODNN7" + "EXAMPLE",  # AWS's documented example key id
        "see sk-learn-preprocessing-pipeline-docs",
        "max_tokens=4096000000",
    ],
)
def test_benign_lines_are_not_reported(line: str) -> None:
    assert _scan(line + "\n") == []


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("secretAccessKey: " + BODY + "0123456789abcdef", SecretKind.AWS_SECRET_ACCESS_KEY),
        ("client_secret=" + VALUE, SecretKind.GENERIC_SECRET),
        ("x-api-key: " + VALUE, SecretKind.GENERIC_SECRET),
        ("access_token=" + VALUE + "&expires=3600", SecretKind.GENERIC_SECRET),
        ('\\"password\\": \\"' + VALUE + '\\"', SecretKind.GENERIC_SECRET),
        ("authorization: bearer " + BODY, SecretKind.BEARER_TOKEN),
        ("redis://:" + VALUE + "@cache:6379/0", SecretKind.PASSWORD_IN_URL),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", SecretKind.PRIVATE_KEY),
        ("-----BEGIN PGP PRIVATE KEY BLOCK-----", SecretKind.PRIVATE_KEY),
        ("-----BEGIN PRIVATE KEY-----", SecretKind.PRIVATE_KEY),
    ],
)
def test_variants_are_reported(line: str, kind: SecretKind) -> None:
    assert _scan("before\n" + line + "\nafter\n") == [SecretFinding(2, kind)]


def test_lines_are_counted_by_newline_only() -> None:
    text = "a\r\nb\rc\n-----BEGIN PRIVATE KEY-----\n"
    assert _scan(text) == [SecretFinding(3, SecretKind.PRIVATE_KEY)]


def test_findings_are_sorted_and_deduplicated() -> None:
    key = "-----BEGIN PRIVATE KEY-----"
    assert _scan(f"{key} {key}\nx\n{key}\n") == [
        SecretFinding(1, SecretKind.PRIVATE_KEY),
        SecretFinding(3, SecretKind.PRIVATE_KEY),
    ]


def test_feed_after_finish_is_refused() -> None:
    scan = PatternSecretScanner().start()
    assert scan.finish() == []
    with pytest.raises(RuntimeError):
        scan.feed(b"x")
