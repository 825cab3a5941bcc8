"""The secret scanners on real input: a catch table, the benign corpus, streaming invariants.

Every credential here is built at run time from a seeded random generator, in the format of the
real thing: the repository holds no literal that looks like a live key (GitHub push protection and
other scanners would flag it, and a real-looking literal cannot be told from a leaked one).
"""

from __future__ import annotations

import base64
import json
import random
import string
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.secrets import pattern_scanner
from cleveragents.adapters.secrets.pattern_scanner import WINDOW_BYTES, PatternSecretScanner
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.domain.secrets import SecretFinding, SecretKind
from tests.conftest import CORPUS, CORPUS_ABSENT
from tests.secret_recall_set import b64url
from tests.secret_recall_set import random_key as _random

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS


@dataclass(frozen=True)
class Sample:
    """A credential: `line` holds it as output would, `json_key: json_value` inside a JSON
    document. `secret` must never show in findings; `locator` starts on the reported line."""

    name: str
    kind: SecretKind
    secret: str
    line: str
    json_key: str
    json_value: str
    locator: str


def _token_sample(name: str, kind: SecretKind, secret: str) -> Sample:
    return Sample(name, kind, secret, f"value: {secret}", "key", secret, secret)


def _samples(seed: int = 20240605) -> tuple[Sample, ...]:
    rng = random.Random(seed)
    aws_secret = _random(rng, ALNUM + "/+", 40)
    jwt = ".".join(
        (
            b64url({"alg": "HS256", "typ": "JWT"}),
            b64url({"sub": _random(rng, DIGITS, 10), "name": "Test User", "iat": 1700000000}),
            _random(rng, ALNUM + "-_", 43),
        )
    )
    pem_body = _random(rng, ALNUM + "+/", 64)
    pem_begin = "-----BEGIN RSA PRIVATE KEY-----"
    url_password = _random(rng, ALNUM, 16)
    url = f"postgres://orders:{url_password}@db.internal:5432/orders"
    bearer = _random(rng, ALNUM + "._-", 40)
    password = _random(rng, ALNUM + "!#%^*", 18)
    return (
        _token_sample(
            "aws-key-id", SecretKind.AWS_ACCESS_KEY_ID, "AKIA" + _random(rng, UPPER + DIGITS, 16)
        ),
        Sample(
            "aws-secret-key",
            SecretKind.AWS_SECRET_ACCESS_KEY,
            aws_secret,
            f'aws_secret_access_key = "{aws_secret}"',
            "aws_secret_access_key",
            aws_secret,
            aws_secret,
        ),
        _token_sample("github-classic", SecretKind.GITHUB_TOKEN, "ghp_" + _random(rng, ALNUM, 36)),
        _token_sample("github-oauth", SecretKind.GITHUB_TOKEN, "gho_" + _random(rng, ALNUM, 36)),
        _token_sample(
            "github-fine-grained",
            SecretKind.GITHUB_TOKEN,
            "github_pat_" + _random(rng, ALNUM, 22) + "_" + _random(rng, ALNUM, 59),
        ),
        _token_sample(
            "openai-legacy",
            SecretKind.OPENAI_API_KEY,
            # The legacy format carries "T3BlbkFJ" ("OpenAI" in base64) in its middle.
            "sk-" + _random(rng, ALNUM, 20) + "T3BlbkFJ" + _random(rng, ALNUM, 20),
        ),
        _token_sample(
            "openai-project",
            SecretKind.OPENAI_API_KEY,
            "sk-proj-" + _random(rng, ALNUM + "-_", 120),
        ),
        _token_sample(
            "anthropic",
            SecretKind.ANTHROPIC_API_KEY,
            "sk-ant-api03-" + _random(rng, ALNUM + "-_", 93) + "AA",
        ),
        Sample(
            "private-key",
            SecretKind.PRIVATE_KEY,
            pem_body,
            f"{pem_begin}\n{pem_body}\n-----END RSA PRIVATE KEY-----",
            "key",
            f"{pem_begin}\n{pem_body}\n-----END RSA PRIVATE KEY-----",
            pem_begin,
        ),
        _token_sample("jwt", SecretKind.JWT, jwt),
        _token_sample(
            "slack-token",
            SecretKind.SLACK_TOKEN,
            "-".join(
                (
                    "xoxb",
                    _random(rng, DIGITS, 11),
                    _random(rng, DIGITS, 13),
                    _random(rng, ALNUM, 24),
                )
            ),
        ),
        _token_sample(
            "slack-webhook",
            SecretKind.SLACK_WEBHOOK,
            "https://hooks.slack.com/services/T"
            + _random(rng, UPPER + DIGITS, 8)
            + "/B"
            + _random(rng, UPPER + DIGITS, 10)
            + "/"
            + _random(rng, ALNUM, 24),
        ),
        _token_sample("stripe-secret", SecretKind.STRIPE_KEY, "sk_live_" + _random(rng, ALNUM, 24)),
        _token_sample(
            "stripe-restricted", SecretKind.STRIPE_KEY, "rk_test_" + _random(rng, ALNUM, 24)
        ),
        _token_sample(
            "google-api-key", SecretKind.GOOGLE_API_KEY, "AIza" + _random(rng, ALNUM + "-_", 35)
        ),
        Sample(
            "password-in-url",
            SecretKind.PASSWORD_IN_URL,
            url_password,
            f"DATABASE_URL={url}",
            "database_url",
            url,
            url_password,
        ),
        Sample(
            "bearer-header",
            SecretKind.BEARER_TOKEN,
            bearer,
            f"Authorization: Bearer {bearer}",
            "Authorization",
            f"Bearer {bearer}",
            bearer,
        ),
        Sample(
            "password-assignment",
            SecretKind.GENERIC_SECRET,
            password,
            f"DB_PASSWORD={password}",
            "password",
            password,
            password,
        ),
    )


SAMPLES = _samples()
SAMPLE_IDS = [sample.name for sample in SAMPLES]


# --- placements: (bytes, expected line, chunks to feed) -------------------------------------

Placement = tuple[bytes, int, list[bytes]]


def _line_of(data: bytes, locator: str) -> int:
    return data[: data.index(locator.encode())].count(b"\n") + 1


def _split_in_locator(data: bytes, locator: str) -> list[bytes]:
    middle = data.index(locator.encode()) + len(locator) // 2
    return [data[:middle], data[middle:]]


def _plain(sample: Sample) -> Placement:
    data = f"$ ./deploy.sh --verbose\nstarting\n{sample.line}\ndone in 3.2 s\n".encode()
    return data, 3, [data]


def _in_json(sample: Sample) -> Placement:
    document = {"config": {"name": "orders", sample.json_key: sample.json_value, "retries": 3}}
    data = json.dumps(document, indent=2).encode()
    return data, _line_of(data, f'"{sample.json_key}"'), [data]


def _across_chunks(sample: Sample) -> Placement:
    data, line, _ = _plain(sample)
    return data, line, _split_in_locator(data, sample.locator)


def _with_invalid_utf8(sample: Sample) -> Placement:
    data = (
        b"\xff\xfe garbage \xc3\x28\n"
        + b"\x80\xbf "
        + sample.line.encode()
        + b" \xe2\x28\xa1 \xf0\x90\x28\n"
        + b"\xed\xa0\x80 tail \xc0\xaf\n"
    )
    return data, 2, [data]


PLACEMENTS: dict[str, Callable[[Sample], Placement]] = {
    "plain": _plain,
    "json": _in_json,
    "chunk-boundary": _across_chunks,
    "invalid-utf8": _with_invalid_utf8,
}


def _scan(scanner: SecretScanner, chunks: list[bytes]) -> list[SecretFinding]:
    scan = scanner.start()
    for chunk in chunks:
        scan.feed(chunk)
    return scan.finish()


def _assert_no_secret(findings: list[SecretFinding], sample: Sample) -> None:
    assert sample.secret not in repr(findings)
    assert sample.secret not in str([(f.line, str(f.kind)) for f in findings])


@pytest.fixture(scope="module")
def builtin() -> PatternSecretScanner:
    return PatternSecretScanner()


# --- the built-in scanner ----------------------------------------------------------------------


@pytest.mark.parametrize("placement", list(PLACEMENTS))
@pytest.mark.parametrize("sample", SAMPLES, ids=SAMPLE_IDS)
def test_builtin_catches_every_kind_in_every_placement(
    builtin: PatternSecretScanner, sample: Sample, placement: str
) -> None:
    data, line, chunks = PLACEMENTS[placement](sample)
    assert b"".join(chunks) == data
    findings = _scan(builtin, chunks)
    assert findings == [SecretFinding(line, sample.kind)]
    _assert_no_secret(findings, sample)


@pytest.mark.parametrize(
    "name", ["aws-key-id", "github-fine-grained", "jwt", "password-in-url", "password-assignment"]
)
def test_builtin_catches_a_key_fed_byte_by_byte(builtin: PatternSecretScanner, name: str) -> None:
    sample = next(s for s in SAMPLES if s.name == name)
    data, line, _ = _with_invalid_utf8(sample)
    assert _scan(builtin, [data[i : i + 1] for i in range(len(data))]) == [
        SecretFinding(line, sample.kind)
    ]


@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("sample", SAMPLES, ids=SAMPLE_IDS)
def test_builtin_catches_a_key_across_its_window_boundary(
    builtin: PatternSecretScanner, sample: Sample, where: str
) -> None:
    """The scanner's own windows (not the caller's chunks) cut through the key."""
    offset = {"start": 0, "middle": len(sample.locator) // 2, "end": len(sample.locator) - 1}[where]
    lead = "value: " if sample.line.startswith("value: ") else ""
    start = sample.line.index(sample.locator) - len(lead)
    filler_length = WINDOW_BYTES - offset - len(lead) - start
    filler = ("INFO served /index.html in 12 ms\n" * 9000)[: filler_length - 1] + "\n"
    data = (filler + sample.line + "\n" + "DEBUG idle\n" * 2000).encode()
    assert data.index(sample.locator.encode()) + offset == WINDOW_BYTES
    expected = [SecretFinding(filler.count("\n") + 1, sample.kind)]
    assert _scan(builtin, [data]) == expected
    assert _scan(builtin, [data[i : i + 4096] for i in range(0, len(data), 4096)]) == expected


def test_builtin_sees_the_byte_before_a_window(builtin: PatternSecretScanner) -> None:
    """A key-shaped tail of a longer word at a window start stays a word tail, however fed."""
    sample = next(s for s in SAMPLES if s.name == "aws-key-id")
    filler = ("INFO served /index.html in 12 ms\n" * 9000)[: WINDOW_BYTES - 2] + "\n"
    data = (filler + "x" + sample.secret + "\n" + "DEBUG idle\n" * 2000).encode()
    assert data.index(sample.secret.encode()) == WINDOW_BYTES
    assert _scan(builtin, [data[i : i + 4096] for i in range(0, len(data), 4096)]) == []
    glued = data.replace(b"x" + sample.secret.encode(), b" " + sample.secret.encode())
    assert _scan(builtin, [glued[i : i + 4096] for i in range(0, len(glued), 4096)]) == [
        SecretFinding(filler.count("\n") + 1, SecretKind.AWS_ACCESS_KEY_ID)
    ]


def test_builtin_finds_a_key_at_the_end_of_a_five_megabyte_line(
    builtin: PatternSecretScanner,
) -> None:
    sample = next(s for s in SAMPLES if s.name == "github-classic")
    words = "lorem ipsum dolor sit amet 12 ms; "
    line = (words * (5 * 1024 * 1024 // len(words) + 1))[: 5 * 1024 * 1024] + sample.secret
    data = ("header\n" + line + "\n").encode()
    expected = [SecretFinding(2, SecretKind.GITHUB_TOKEN)]
    assert _scan(builtin, [data]) == expected
    assert _scan(builtin, [data[i : i + 65536] for i in range(0, len(data), 65536)]) == expected


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(path for path in CORPUS.rglob("*") if path.is_file())


@pytest.mark.skipif(not CORPUS.is_dir(), reason=CORPUS_ABSENT)
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_builtin_finds_nothing_in_benign_corpus_files(
    builtin: PatternSecretScanner, path: Path
) -> None:
    assert builtin.scan_bytes(path.read_bytes()) == []


_FRAGMENTS = [
    *(sample.line.encode() for sample in SAMPLES),
    *(sample.secret.encode() for sample in SAMPLES),
    b"\n",
    b"\r\n",
    b" ",
    b'"',
    b"=",
    b"password=",
    b"Authorization: Bearer ",
    b"\xff",
    b"\xc3",
    b"\xe2\x28\xa1",
    b"plain words of output ",
    b"INFO served /index.html in 12 ms\n" * 60,
    # Wrapped: base64 of a credential's line, UTF-16LE, and the allow marker.
    *(base64.b64encode(sample.line.encode()) for sample in SAMPLES[:6]),
    *(sample.line.encode("utf-16-le") for sample in SAMPLES[6:10]),
    b"\x00",
    b" cleveragents:allow-secret ",
]


@settings(max_examples=120)
@given(
    pieces=st.lists(st.sampled_from(_FRAGMENTS) | st.binary(max_size=40), max_size=40),
    cuts=st.lists(st.integers(min_value=0, max_value=1 << 16), max_size=12),
)
def test_builtin_findings_do_not_depend_on_chunking(
    pieces: list[bytes], cuts: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small windows so that window boundaries fall everywhere in a few kilobytes of input.
    monkeypatch.setattr(pattern_scanner, "WINDOW_BYTES", 61)
    scanner = PatternSecretScanner()
    data = b"".join(pieces)
    positions = sorted({cut % (len(data) + 1) for cut in cuts})
    chunks = [data[a:b] for a, b in zip([0, *positions], [*positions, len(data)], strict=True)]
    assert _scan(scanner, chunks) == scanner.scan_bytes(data)
    scan = scanner.start()
    for chunk in chunks:
        scan.feed(chunk)
    assert scan.finish_matches() == scanner.match_bytes(data)


def test_scanner_name() -> None:
    assert PatternSecretScanner().name == "builtin"


# --- detect-secrets ----------------------------------------------------------------------------

# What detect-secrets 1.5.0 (default plugins and filters) has no detector for, or misses where ours
# does not. Strict xfails: a newer release that catches one turns the test red, to be updated.
DETECT_SECRETS_MISSES = {
    "github-fine-grained": "no pattern for github_pat_ tokens",
    "openai-project": "matches only the legacy format with T3BlbkFJ",
    "anthropic": "no Anthropic plugin",
    "stripe-restricted": "matches live keys only",
    "google-api-key": "no Google plugin",
    "bearer-header": "no Authorization header plugin",
}
# Misses in some placements only: the keyword plugin wants a quoted value outside code files.
DETECT_SECRETS_PLACEMENT_MISSES = {
    ("password-assignment", placement): "keyword plugin needs a quoted value in plain text"
    for placement in ("plain", "chunk-boundary", "invalid-utf8")
}


def _detect_secrets_params() -> list[object]:
    params: list[object] = []
    for sample in SAMPLES:
        for placement in PLACEMENTS:
            reason = DETECT_SECRETS_MISSES.get(sample.name) or DETECT_SECRETS_PLACEMENT_MISSES.get(
                (sample.name, placement)
            )
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(
                pytest.param(sample, placement, id=f"{sample.name}-{placement}", marks=marks)
            )
    return params


@pytest.fixture(scope="module")
def detect_secrets() -> SecretScanner:
    pytest.importorskip("detect_secrets")
    from cleveragents.adapters.secrets.detect_secrets_scanner import DetectSecretsScanner

    return DetectSecretsScanner()


@pytest.mark.parametrize(("sample", "placement"), _detect_secrets_params())
def test_detect_secrets_catches_the_kinds_it_supports(
    detect_secrets: SecretScanner, sample: Sample, placement: str
) -> None:
    _, line, chunks = PLACEMENTS[placement](sample)
    findings = _scan(detect_secrets, chunks)
    # It may add findings of its own (high-entropy strings) next to ours.
    assert SecretFinding(line, sample.kind) in findings
    _assert_no_secret(findings, sample)


@pytest.mark.parametrize("name", ["aws-key-id", "jwt", "password-in-url"])
def test_detect_secrets_catches_a_key_fed_byte_by_byte(
    detect_secrets: SecretScanner, name: str
) -> None:
    sample = next(s for s in SAMPLES if s.name == name)
    data, line, _ = _with_invalid_utf8(sample)
    findings = _scan(detect_secrets, [data[i : i + 1] for i in range(len(data))])
    assert SecretFinding(line, sample.kind) in findings


def test_detect_secrets_finds_a_key_at_the_end_of_a_long_line(
    detect_secrets: SecretScanner,
) -> None:
    sample = next(s for s in SAMPLES if s.name == "aws-key-id")
    data = ("header\n" + "lorem ipsum " * 20_000 + sample.secret + "\n").encode()
    findings = _scan(detect_secrets, [data[i : i + 5000] for i in range(0, len(data), 5000)])
    assert SecretFinding(2, SecretKind.AWS_ACCESS_KEY_ID) in findings


def test_detect_secrets_scanner_name(detect_secrets: SecretScanner) -> None:
    assert detect_secrets.name == "detect-secrets"


def test_detect_secrets_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from cleveragents.adapters.secrets.detect_secrets_scanner import (
        DetectSecretsScanner,
        DetectSecretsUnavailableError,
    )
    from cleveragents.domain.errors import InvalidInputError

    monkeypatch.setitem(sys.modules, "detect_secrets", None)  # as if it were not installed
    with pytest.raises(DetectSecretsUnavailableError, match=r"\[secrets\]") as error:
        DetectSecretsScanner()
    assert isinstance(error.value, InvalidInputError)
