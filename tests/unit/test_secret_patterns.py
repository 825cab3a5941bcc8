"""The built-in scanner's patterns: bounded widths, entropy, and what is deliberately not a secret.

Key-shaped values are assembled at run time so the repository holds no real-looking credential.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import re

import pytest

from cleveragents.adapters.secrets.pattern_scanner import (
    CONTEXT_BYTES,
    OVERLAP_BYTES,
    PatternSecretScanner,
)
from cleveragents.adapters.secrets.secret_patterns import MAX_MATCH_BYTES, PATTERNS
from cleveragents.adapters.secrets.secret_values import is_placeholder, shannon_entropy
from cleveragents.domain.secrets import SecretFinding, SecretKind

# A value with a digit and >= 3 bits per byte, and key bodies shaped like real ones.
VALUE = "Qx7" + "vR2mK9pL" + "w4Zt"
BODY = "aB3dE5fG7hJ9kL1mN2pQ4rS6"
# A private key's base64 body: two lines of 64, as PEM writes them.
PEM_BODY = base64.b64encode(random.Random(5).randbytes(96)).decode()
PEM_LINES = PEM_BODY[:64] + "\n" + PEM_BODY[64:]


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
        b"P@55w0rd!",  # the word, in look-alike symbols
        b"Passw0rd123",
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
        ("-----BEGIN OPENSSH PRIVATE KEY----- " + PEM_BODY, SecretKind.PRIVATE_KEY),
        ("-----BEGIN PGP PRIVATE KEY BLOCK-----\\n\\n" + PEM_BODY, SecretKind.PRIVATE_KEY),
        ("-----BEGIN PRIVATE KEY-----\\n" + PEM_BODY, SecretKind.PRIVATE_KEY),
    ],
)
def test_variants_are_reported(line: str, kind: SecretKind) -> None:
    assert _scan("before\n" + line + "\nafter\n") == [SecretFinding(2, kind)]


# Each line was found in an installed site-packages (cfn-lint's schemas, botocore's examples and
# paginators, moto, cryptography) and is not a credential; beside it, the closest line that is.
NAMES_THAT_ARE_NOT_CREDENTIALS = [
    pytest.param(
        '"AWS::ApiGateway::ApiKey": "b899a0d240b53d9d",',
        '"ApiKey": "b899a0d240b53d9d",',
        id="type-path-api-key",
    ),
    pytest.param(
        '"AWS::SecretsManager::Secret": "f6b785ff8e74d121",',
        '"Secret": "f6b785ff8e74d121",',
        id="type-path-secret",
    ),
    pytest.param(
        '"ARN": "arn:aws:secretsmanager:us-west-2:123456789012:secret:MyTestDatabaseSecret-a1b2c3"',
        '"Name": "secret:MyTestDatabaseSecret-a1b2c3",',
        id="arn-resource-type",
    ),
    pytest.param(
        '"Resource":"arn:aws:secretsmanager:*:*:secret:A4BNetworkProfile*",',
        '"Resource":"arn:aws:secretsmanager:*:*:resource secret:A4BNetworkProfile*",',
        id="arn-wildcards",
    ),
    pytest.param(
        '"output_token": "' + VALUE + '",',
        '"access_token": "' + VALUE + '",',
        id="pagination-token",
    ),
    pytest.param(
        '        self.update_token = "1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d"',
        '        self.auth_token = "1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d"',
        id="concurrency-token",
    ),
    pytest.param(
        "next_page_token=" + VALUE,
        "refresh_token=" + VALUE,
        id="page-token",
    ),
    pytest.param(
        "            certificate_arn=certificate_arn, passphrase=passphrase",
        "            certificate_arn=certificate_arn, passphrase=letmeinplease",
        id="value-is-the-name",
    ),
    pytest.param(
        '"PrivateKey": "-----BEGIN DSA PRIVATE KEY-----<a very long private key string>'
        '-----END DSA PRIVATE KEY-----"',
        '"PrivateKey": "-----BEGIN DSA PRIVATE KEY-----\\n'
        + PEM_LINES.replace("\n", "\\n")
        + '\\n-----END DSA PRIVATE KEY-----"',
        id="pem-header-without-body",
    ),
    pytest.param(
        '_SK_START = b"-----BEGIN OPENSSH PRIVATE KEY-----"',
        '_SK_START = b"-----BEGIN OPENSSH PRIVATE KEY-----' + PEM_BODY + '"',
        id="pem-header-constant",
    ),
]


@pytest.mark.parametrize(("benign", "credential"), NAMES_THAT_ARE_NOT_CREDENTIALS)
def test_a_name_or_header_that_is_no_credential_beside_one_that_is(
    benign: str, credential: str
) -> None:
    assert _scan("before\n" + benign + "\nafter\n") == []
    assert len(_scan("before\n" + credential + "\nafter\n")) == 1


def test_a_key_split_into_pem_lines_is_reported_and_a_short_body_is_not() -> None:
    key = "-----BEGIN RSA PRIVATE KEY-----\n" + PEM_LINES + "\n-----END RSA PRIVATE KEY-----\n"
    assert _scan(key) == [SecretFinding(1, SecretKind.PRIVATE_KEY)]
    assert _scan("-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n") == []
    # Words after the header are no body, however many.
    words = " ".join(["the", "key", "goes", "here"] * 20)
    assert _scan("-----BEGIN RSA PRIVATE KEY----- " + words + "\n") == []


def test_a_header_that_ends_the_text_is_a_key_whose_body_was_not_scanned() -> None:
    """A line scanned alone (a redaction re-scans the BEGIN line) or an output cut after the
    header: what follows is unseen, not absent."""
    for tail in ("", "\n", "\r\n  \n"):
        assert _scan("log\n-----BEGIN EC PRIVATE KEY-----" + tail) == [
            SecretFinding(2, SecretKind.PRIVATE_KEY)
        ]
    assert _scan("-----BEGIN EC PRIVATE KEY-----\nlog\n") == []


def test_lines_are_counted_by_newline_only() -> None:
    text = "a\r\nb\rc\n-----BEGIN PRIVATE KEY----- " + PEM_BODY + "\n"
    assert _scan(text) == [SecretFinding(3, SecretKind.PRIVATE_KEY)]


def test_findings_are_sorted_and_deduplicated() -> None:
    key = "-----BEGIN PRIVATE KEY----- " + PEM_BODY
    assert _scan(f"{key} {key}\nx\n{key}\n") == [
        SecretFinding(1, SecretKind.PRIVATE_KEY),
        SecretFinding(3, SecretKind.PRIVATE_KEY),
    ]


def test_feed_after_finish_is_refused() -> None:
    scan = PatternSecretScanner().start()
    assert scan.finish() == []
    with pytest.raises(RuntimeError):
        scan.feed(b"x")


def _jwt(key: bytes, algorithm: str = "HS256") -> str:
    def b64url(value: bytes) -> bytes:
        return base64.urlsafe_b64encode(value).rstrip(b"=")

    header = b64url(json.dumps({"alg": algorithm, "typ": "JWT"}).encode())
    claims = b64url(b'{"sub": "4721", "scope": "orders:write"}')
    signed = header + b"." + claims
    signature = hmac.new(key, signed, hashlib.sha256).digest()
    return (signed + b"." + b64url(signature)).decode()


def test_a_token_signed_with_a_placeholder_key_is_a_documentation_example() -> None:
    # The key is a placeholder word, or a quoted placeholder the example signs with.
    assert _scan(f">>> jwt.encode(claims, 'secret')\n{_jwt(b'secret')}\n") == []
    example = f'key = jwk.import_key("your-signing-key")\ntoken = {_jwt(b"your-signing-key")}\n'
    assert _scan(example) == []


def test_a_token_is_reported_when_its_key_is_not_a_placeholder_in_the_text() -> None:
    found = [SecretFinding(line=1, kind=SecretKind.JWT)]
    assert _scan(f"session {_jwt(BODY.encode())}\n") == found
    # A placeholder key the text does not show is not tried: the token is reported.
    assert _scan(f"session {_jwt(b'your-signing-key')}\n") == found
    # A quoted key that is not a placeholder does not clear it either.
    assert _scan(f"key = '{BODY}'\nsession {_jwt(BODY.encode())}\n") != []
    # Nor does an algorithm whose key never appears in text (or an unreadable header).
    assert _scan(f"session {_jwt(b'secret', 'RS256')}\n") == found
    unreadable = "eyJub3QganNvbg." + _jwt(b"secret").split(".", 1)[1]  # {"not json
    assert _scan(f"session {unreadable}\n") == found
