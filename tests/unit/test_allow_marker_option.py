"""The scanners' `honour_allow_markers` option, in both directions: a scan ignores the inline
allow marker unless its caller asks for it (tool output can print the marker), and honours it
when asked (a person's own file). Real scanners; credentials generated at run time."""

from __future__ import annotations

import base64

import pytest

from cleveragents.adapters.secrets.combined_scanner import (
    CombinedSecretScanner,
    make_secret_scanner,
)
from cleveragents.adapters.secrets.detect_secrets_scanner import DetectSecretsUnavailableError
from cleveragents.adapters.secrets.pattern_scanner import WINDOW_BYTES, PatternSecretScanner
from cleveragents.application.ports.secret_scanner import ALLOW_MARKER, SecretScanner
from tests.secret_recall_set import credentials

CREDENTIALS = {credential.name: credential for credential in credentials()}
AWS = CREDENTIALS["aws-access-key-id"]
GITHUB = CREDENTIALS["github-classic"]
# detect-secrets' own inline allowance, which a tool can print as easily as ours.
DETECT_SECRETS_PRAGMA = "# pragma: allowlist secret"


def _marked(text: str, marker: str = ALLOW_MARKER) -> bytes:
    return f"build started\n{text}  # {marker}\nbuild done\n".encode()


def _scanners() -> dict[str, SecretScanner]:
    scanners: dict[str, SecretScanner] = {
        "builtin": PatternSecretScanner(),
        "combined-builtin": CombinedSecretScanner((PatternSecretScanner(),)),
    }
    try:
        scanners["detect-secrets"] = make_secret_scanner("detect-secrets")
        scanners["both"] = make_secret_scanner("both")
    except DetectSecretsUnavailableError:  # the optional extra: the built-in ones still run
        pass
    return scanners


_BY_NAME = _scanners()
SCANNERS = list(_BY_NAME.values())
IDS = list(_BY_NAME)


@pytest.mark.parametrize("scanner", SCANNERS, ids=IDS)
def test_a_marked_line_is_reported_by_default(scanner: SecretScanner) -> None:
    data = _marked(AWS.text)
    # `both` gives two matches on the line (one has a span, detect-secrets' has none).
    assert {m.line for m in scanner.match_bytes(data)} == {2}
    assert [f.line for f in scanner.scan_bytes(data)] == [2]
    assert [f.line for f in scanner.scan_text(data.decode())] == [2]
    scan = scanner.start()
    scan.feed(data)
    assert [f.line for f in scan.finish()] == [2]


@pytest.mark.parametrize("scanner", SCANNERS, ids=IDS)
def test_a_marked_line_is_allowed_when_the_caller_asks(scanner: SecretScanner) -> None:
    data = _marked(AWS.text)
    assert scanner.match_bytes(data, honour_allow_markers=True) == []
    assert scanner.scan_bytes(data, honour_allow_markers=True) == []
    assert scanner.scan_text(data.decode(), honour_allow_markers=True) == []
    scan = scanner.start(honour_allow_markers=True)
    scan.feed(data)
    assert scan.finish_matches() == []


@pytest.mark.parametrize("scanner", SCANNERS, ids=IDS)
def test_honouring_allows_only_the_marked_line(scanner: SecretScanner) -> None:
    data = _marked(AWS.text) + f"{GITHUB.text}\n".encode()
    assert [f.line for f in scanner.scan_bytes(data, honour_allow_markers=True)] == [4]
    assert [f.line for f in scanner.scan_bytes(data)] == [2, 4]


def test_the_builtin_option_holds_in_every_wrapping_and_chunking() -> None:
    scanner = PatternSecretScanner()
    encoded = base64.b64encode(AWS.text.encode()).decode()
    line = f"{AWS.text} {ALLOW_MARKER}\n"
    for data in (
        _marked(encoded),  # a base64 run beside the marker
        ("x\n" + line).encode("utf-16-le"),  # the marker in UTF-16LE
        b"y" * (WINDOW_BYTES - 40) + b"\n" + line.encode(),  # across a window's edge
    ):
        assert scanner.match_bytes(data, honour_allow_markers=True) == []
        assert len(scanner.match_bytes(data)) == 1
    data = _marked(AWS.text)
    for cut in range(1, len(data)):
        for honour, expected in ((True, 0), (False, 1)):
            scan = scanner.start(honour_allow_markers=honour)
            scan.feed(data[:cut])
            scan.feed(data[cut:])
            assert len(scan.finish_matches()) == expected, (cut, honour)


def test_the_builtin_honours_its_own_marker_only() -> None:
    data = _marked(AWS.text, DETECT_SECRETS_PRAGMA.removeprefix("# "))
    assert len(PatternSecretScanner().match_bytes(data, honour_allow_markers=True)) == 1


def test_detect_secrets_pragma_is_an_inline_marker_too() -> None:
    """detect-secrets drops a line holding ``pragma: allowlist secret``: a tool could print
    it, so only a scan that honours markers lets it do so."""
    try:
        scanner = make_secret_scanner("detect-secrets")
    except DetectSecretsUnavailableError:
        pytest.skip("detect-secrets is not installed (the 'secrets' extra)")
    data = f"build started\n{AWS.text}  {DETECT_SECRETS_PRAGMA}\nbuild done\n".encode()
    assert [f.line for f in scanner.scan_bytes(data)] == [2]
    assert scanner.scan_bytes(data, honour_allow_markers=True) == []


def test_the_combined_scanner_passes_the_option_to_each_scanner() -> None:
    """A marker one scanner would honour and the other ignore cannot split a combined scan:
    each gets the option the combined scan was started with."""
    combined = CombinedSecretScanner((PatternSecretScanner(), PatternSecretScanner()))
    data = _marked(AWS.text)
    assert combined.match_bytes(data, honour_allow_markers=True) == []
    [match] = combined.match_bytes(data)  # the same finding from both: one match
    assert match.line == 2
