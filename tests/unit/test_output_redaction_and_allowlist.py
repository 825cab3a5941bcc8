"""Stream redaction (spans and whole lines, however the stream is cut) and the allowlist file."""

from __future__ import annotations

import pytest

from cleveragents.application.ports.secret_scanner import SecretMatch
from cleveragents.application.services.governance.output_redaction import redact_text
from cleveragents.application.services.governance.secret_allowlist import (
    AllowlistError,
    parse_allowlist,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.secrets import SecretKind
from tests.redaction_samples import FIRST, REDACTED, SECOND, TEXT, WHOLE_LINE, redact_cut_at


def test_spans_and_lines_are_replaced_by_their_rule() -> None:
    assert TEXT[8:16] == b"AAAA1111"
    assert TEXT[25:33] == b"BBBB2222"
    assert redact_cut_at(TEXT, [FIRST, SECOND, WHOLE_LINE], []) == REDACTED


def test_overlapping_spans_become_one_notice_and_a_span_may_cross_lines() -> None:
    wide = SecretMatch(1, SecretKind.PRIVATE_KEY, "private-key", "private-key:" + "4" * 16, 2, 20)
    inner = SecretMatch(2, SecretKind.GENERIC_SECRET, "token", "token:" + "5" * 16, 8, 16)
    out = redact_cut_at(TEXT, [wide, inner], [5, 9, 17])
    assert out == b"on[REDACTED:private-key] key=BBBB2222\nthree LINE-SECRET here\nfour\n"


def test_a_flagged_last_line_without_a_newline() -> None:
    last = SecretMatch(2, SecretKind.OTHER, "other", "other:" + "6" * 16)
    assert redact_cut_at(b"a\nsecret", [last], [4]) == b"a\n[REDACTED:other]"


def test_redact_text_for_a_file_name() -> None:
    name = "out/ghp_TOKEN.log"
    match = SecretMatch(
        0, SecretKind.GITHUB_TOKEN, "github-token", "github-token:" + "7" * 16, 4, 13
    )
    assert redact_text(name, [match]) == "out/[REDACTED:github-token].log"


ALLOWLIST = b"""
fingerprints = ["npm-token:0123456789abcdef"]

[[rules]]
reason = "fixtures hold fake keys"
kinds = ["jwt", "generic-secret"]
paths = ["tests/fixtures/*"]

[[rules]]
kinds = ["private-key"]
"""


def _match(rule: str, kind: SecretKind, digest: str = "f" * 16) -> SecretMatch:
    return SecretMatch(1, kind, rule, f"{rule}:{digest}")


def test_an_allowlist_allows_by_fingerprint_and_by_rule() -> None:
    allowlist = parse_allowlist(ALLOWLIST, "allow.toml")
    npm = _match("npm-token", SecretKind.GENERIC_SECRET, "0123456789abcdef")
    other_npm = _match("npm-token", SecretKind.GENERIC_SECRET)
    jwt = _match("jwt", SecretKind.JWT)
    password = _match("password", SecretKind.GENERIC_SECRET)
    key = _match("private-key", SecretKind.PRIVATE_KEY)
    assert allowlist.allows(npm, "logs/x.log")
    assert not allowlist.allows(other_npm, "logs/x.log")
    assert allowlist.allows(jwt, "tests/fixtures/a.json")
    assert not allowlist.allows(jwt, "logs/a.json")
    assert allowlist.allows(password, "tests/fixtures/env")  # by its kind, generic-secret
    assert allowlist.allows(key, "anywhere")
    assert allowlist.keep([npm, other_npm, key], "x") == [other_npm]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"fingerprints = [", "not a TOML allowlist"),
        (b"\xff", "not a TOML allowlist"),
        (b"fingerprint = []", "unknown key 'fingerprint'"),
        (b'fingerprints = ["abc"]', "is not a fingerprint"),
        (b"fingerprints = [1]", "fingerprints must be an array of strings"),
        (b"[[rules]]\nreason = 'x'", "needs kinds or paths"),
        (b"[[rules]]\nkinds = ['jwt']\nkind = 'x'", "unknown key 'kind'"),
        (b"rules = 3", "rules must be an array of tables"),
        (b"[[rules]]\nkinds = 'jwt'", "kinds must be an array of strings"),
        (b"[[rules]]\nkinds = ['jwt']\nreason = 3", "reason must be a string"),
    ],
)
def test_a_bad_allowlist_is_one_clear_error(text: bytes, message: str) -> None:
    with pytest.raises(AllowlistError, match=message) as caught:
        parse_allowlist(text, "allow.toml")
    assert isinstance(caught.value, InvalidInputError)
    assert str(caught.value).startswith("allow.toml")
    assert "\n" not in str(caught.value)
