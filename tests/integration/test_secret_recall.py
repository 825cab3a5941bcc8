"""The built-in scanner on the labelled recall set (78 kinds, 8 forms), on lines that only look
like credentials, and the parts of a finding that an allowlist or a redaction uses."""

from __future__ import annotations

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.ports.secret_scanner import ALLOW_MARKER, SecretMatch
from tests.secret_recall_set import (
    BENIGN_LINES,
    FORMS,
    REQUIRED_FORMS,
    Case,
    cases,
    credentials,
)

CASES = cases()


@pytest.fixture(scope="module")
def scanner() -> PatternSecretScanner:
    return PatternSecretScanner()


def _matches(scanner: PatternSecretScanner, case: Case) -> list[SecretMatch]:
    scan = scanner.start()
    for chunk in case.chunks:
        scan.feed(chunk)
    return scan.finish_matches()


def test_the_set_has_fifty_four_kinds_or_more_in_every_form() -> None:
    assert len(credentials()) >= 54
    assert {case.form for case in CASES} == set(FORMS)
    assert set(REQUIRED_FORMS) <= set(FORMS)
    assert len({case.credential.name for case in CASES}) == len(credentials())


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_every_credential_is_found_on_its_line_and_only_there(
    scanner: PatternSecretScanner, case: Case
) -> None:
    matches = _matches(scanner, case)
    assert {match.line for match in matches} == {case.line}
    # Nothing of the secret in what a finding holds: not the value, not part of its text.
    shown = repr(matches) + repr([m.finding for m in matches])
    assert case.credential.secret not in shown
    assert case.credential.secret[:12] not in shown


@pytest.mark.parametrize("line", BENIGN_LINES)
def test_lines_that_only_look_like_credentials_are_not_reported(
    scanner: PatternSecretScanner, line: str
) -> None:
    assert scanner.match_bytes(f"before\n{line}\nafter\n".encode()) == []
    assert scanner.match_bytes(line.encode("utf-16-le")) == []


@pytest.mark.parametrize(
    "name", ["github-classic", "npm-token", "password-quoted", "azure-storage-key"]
)
def test_a_credential_has_one_fingerprint_in_every_form(
    scanner: PatternSecretScanner, name: str
) -> None:
    """The fingerprint is of the value, so the allowlist entry printed for one import allows
    the same credential however the next output wraps it."""
    wanted = [case for case in CASES if case.credential.name == name]
    fingerprints = {match.fingerprint for case in wanted for match in _matches(scanner, case)}
    assert len(fingerprints) == 1
    [fingerprint] = fingerprints
    rule, _, digest = fingerprint.partition(":")
    assert rule
    assert len(digest) == 16
    assert int(digest, 16) >= 0


def test_two_credentials_of_one_kind_have_two_fingerprints(scanner: PatternSecretScanner) -> None:
    first, second = credentials(1), credentials(2)
    one = scanner.match_bytes(first[2].text.encode())
    other = scanner.match_bytes(second[2].text.encode())
    assert one[0].rule == other[0].rule == "github-token"
    assert one[0].fingerprint != other[0].fingerprint


@pytest.mark.parametrize("case", [c for c in CASES if c.form == "plain"], ids=lambda c: c.id)
def test_a_match_spans_the_credential(scanner: PatternSecretScanner, case: Case) -> None:
    """What a redaction replaces: the secret itself, not its line."""
    [match] = _matches(scanner, case)
    covered = case.data[match.start : match.end]
    assert case.credential.secret.encode() in covered
    assert not covered.startswith(b"$ ./deploy")


def test_base64_and_utf16_matches_span_their_bytes_in_the_stream(
    scanner: PatternSecretScanner,
) -> None:
    github = next(c for c in CASES if c.id == "github-classic-base64")
    [match] = _matches(scanner, github)
    wrapped = github.data.split(b"\n")[1]
    assert github.data[match.start : match.end] == wrapped
    utf16 = next(c for c in CASES if c.id == "github-classic-utf16le")
    [match] = _matches(scanner, utf16)
    secret = github.credential.secret.encode("utf-16-le")
    assert utf16.data[match.start : match.end] == secret


def test_the_inline_marker_allows_its_line_only(scanner: PatternSecretScanner) -> None:
    key = credentials()[0].secret
    text = f"export AWS_ACCESS_KEY_ID={key}  # {ALLOW_MARKER}\nexport OTHER={key}\n"
    [match] = scanner.match_bytes(text.encode(), honour_allow_markers=True)
    assert match.line == 2
    marked_before = f"# {ALLOW_MARKER}: fixture\nkey={key}\n{ALLOW_MARKER} key={key}\n"
    honoured = scanner.match_bytes(marked_before.encode(), honour_allow_markers=True)
    assert [m.line for m in honoured] == [2]


def test_the_inline_marker_works_across_chunks_and_in_utf16(scanner: PatternSecretScanner) -> None:
    key = credentials()[0].secret
    data = f"x\nkey {key} {ALLOW_MARKER}\n".encode()
    for cut in range(1, len(data)):
        scan = scanner.start(honour_allow_markers=True)
        scan.feed(data[:cut])
        scan.feed(data[cut:])
        assert scan.finish_matches() == []
    utf16 = data.decode().encode("utf-16-le")
    assert scanner.match_bytes(utf16, honour_allow_markers=True) == []


def test_a_specific_format_is_reported_once_not_also_as_a_generic_token(
    scanner: PatternSecretScanner,
) -> None:
    npm = next(c for c in credentials() if c.name == "npm-token")
    assert [m.rule for m in scanner.match_bytes(npm.text.encode())] == ["npm-token"]


def test_a_long_base64_blob_is_not_decoded(scanner: PatternSecretScanner) -> None:
    """An image or an archive in base64: not text, and not worth the time."""
    import base64

    github = credentials()[2]
    blob = base64.b64encode(github.text.encode() + b" " * 4000).decode()
    assert scanner.match_bytes(f"x\n{blob}\n".encode()) == []
