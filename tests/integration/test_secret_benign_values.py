"""The generic rules (`password`, `secret`, `token`, `api-key` assignments) on ordinary text: lines
seen in public logs and installed packages, and generated logs of many formats that name
credentials without holding one, give no finding; credentials assigned the same ways still do.

Credential-shaped values are generated at run time from a seeded generator.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.benign_logs import FORMATS, BenignFormat, generate
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from tests.secret_recall_set import ALNUM, DIGITS, LOWER, random_key

# Lines that blocked whole files wrongly, seen in a public macOS log and in fontTools.
SEEN_LINES = (
    "Jul  1 09:01:05 calvisitor-10-105-160-95 com.apple.CDScheduler[43]: Could not get event "
    "name for stream/token: com.apple.xpc.activity/4505: 132: Request for stale data",
    '                    token = "unknown_12_%d" % byteord(self.bytecode[index - 1])',
)

# A JMESPath expression names where a listing resumes, whatever its key is called.
NOT_CREDENTIALS = (
    '"output_token": "Jobs[-1].JobId",',
    '"access_token": "Jobs[-1].JobId",',
    "token: 2024-06-05T09:00:01.123Z",
    "secret: projects/acme-prod/secrets/db-password/versions/3",
    "api_key=sk-...a1B2",
    'password = "pw_%d" % attempt',
    "PWD=/home/deploy/src/orders",
    "token: 0x7ffee3b1c9a8",
    "secret: com.example.orders.SecretStore@3f9a2b1",
)


@pytest.fixture(scope="module")
def scanner() -> PatternSecretScanner:
    return PatternSecretScanner()


@pytest.mark.parametrize("line", SEEN_LINES + NOT_CREDENTIALS)
def test_a_value_that_is_no_credential_is_not_reported(
    scanner: PatternSecretScanner, line: str
) -> None:
    assert scanner.match_bytes(f"before\n{line}\nafter\n".encode()) == []


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda fmt: fmt.name)
def test_a_generated_benign_log_has_no_finding(
    scanner: PatternSecretScanner, fmt: BenignFormat
) -> None:
    log = generate(fmt, records=60, seed=7).encode()
    assert scanner.match_bytes(log) == []


def test_the_generated_logs_are_deterministic_and_name_credentials() -> None:
    fmt = next(f for f in FORMATS if f.name == "logfmt")
    first, again = generate(fmt, 50), generate(fmt, 50)
    assert first == again
    assert first != generate(fmt, 50, seed=8)
    words = ("token", "secret", "password", "api_key")
    assert all(word in first for word in words)


def _credentials() -> list[tuple[str, str]]:
    """(line, secret) pairs: values a person or a program makes, assigned as code, a .env file,
    YAML, JSON and a log line assign them."""
    rng = random.Random(20240605)
    hex_key = "".join(rng.choice("0123456789abcdef") for _ in range(40))
    token = random_key(rng, ALNUM, 40)
    password = random_key(rng, ALNUM, 6) + "#" + random_key(rng, ALNUM, 5)
    person_made = "hunter" + rng.choice(DIGITS) + rng.choice(LOWER)
    lower = random_key(rng, LOWER + DIGITS, 32)
    return [
        (f"password={password}", password),
        (f"api_key: {hex_key}", hex_key),
        (f'{{"token": "{token}"}}', token),
        (f"DB_PASSWORD={person_made}", person_made),
        (f"client_secret = '{lower}'", lower),
        (f"level=info msg=login token={token} user=ana", token),
        (f"x-api-key: ya29.{token}", "ya29." + token),
    ]


@pytest.mark.parametrize(("line", "secret"), _credentials())
def test_credentials_assigned_to_the_same_names_are_reported(
    scanner: PatternSecretScanner, line: str, secret: str
) -> None:
    data = f"before\n{line}\nafter\n".encode()
    [match] = scanner.match_bytes(data)
    assert match.line == 2
    assert data[match.start : match.end] == secret.encode()
