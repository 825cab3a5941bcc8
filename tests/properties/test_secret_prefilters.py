"""The scanner's shortcuts find what the plain definitions find.

The base64 pass finds its tokens through byte classes and `find`; the UTF-16LE pass runs only on
windows that hold three printable characters in a row in UTF-16LE; anchored patterns hop from
one anchor byte to the next. Each is checked against a plain statement of what it stands for
(the tokens' definition, the pass run everywhere, `finditer`), over generated streams cut into
windows as the scanner cuts them. Key-shaped values are assembled at run time.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.secrets import pattern_scanner
from cleveragents.adapters.secrets.pattern_scanner import (
    MAX_BASE64_CHARS,
    MIN_BASE64_CHARS,
    OVERLAP_BYTES,
    PatternSecretScanner,
    _base64_runs,
    _may_hold_utf16le_text,
)
from cleveragents.adapters.secrets.secret_patterns import PATTERNS
from cleveragents.application.ports.secret_scanner import SecretMatch
from cleveragents.domain.secrets import SecretKind

_EDGES = b" \t\n\r\x0b\x0c\"'=:,;()[]{}<>"
_RUN = re.compile(rb"[A-Za-z0-9+/]+")
_PRINTABLE = re.compile(rb"[\x20-\x7e\t\n\r]*")
_GROUP_START = re.compile(rb"[A-Za-f]")
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6" + "tU8vW0xY2zA4"


def _plain_base64_tokens(data: bytes) -> list[tuple[int, int, bytes]]:
    """Every maximal run of 20 to 4096 base64 characters between edges (or the stream's ends),
    of a length a base64 text can have, not letters only, whose 4-character groups all start
    like ASCII's, and that decodes to printable text; its span takes the `=` padding after it."""
    tokens = []
    for run in _RUN.finditer(data):
        start, end = run.span()
        text = run.group()
        if not MIN_BASE64_CHARS <= len(text) <= MAX_BASE64_CHARS:
            continue
        if (start and data[start - 1] not in _EDGES) or (
            end < len(data) and data[end] not in _EDGES
        ):
            continue
        if len(text) % 4 == 1 or text.isalpha():
            continue
        if not all(_GROUP_START.match(text, i) for i in range(0, len(text), 4)):
            continue
        decoded = binascii.a2b_base64(text + b"=" * (-len(text) % 4))
        if _PRINTABLE.fullmatch(decoded):
            padding = len(data[end : end + 2]) - len(data[end : end + 2].lstrip(b"="))
            tokens.append((start, end + padding, decoded))
    return tokens


def _windows(size: int, window: int) -> Iterator[tuple[int, int, int]]:
    """(start, end, limit) as the scanner reads a stream of `size` bytes in windows."""
    for start in range(0, size, window):
        yield start, min(start + window, size), min(start + window + OVERLAP_BYTES, size)


_pieces = st.one_of(
    st.binary(max_size=30),
    st.text("ABCXYZabcxyz0189+/=", max_size=40).map(str.encode),
    st.sampled_from([b" ", b"\n", b'"', b"=", b":", b".", b"-", b"_", b"\x00", b"\xff"]),
    st.text(max_size=60).map(lambda text: base64.b64encode(text.encode("utf-8"))),
    st.binary(max_size=60).map(base64.b64encode),
    st.integers(MAX_BASE64_CHARS - 8, MAX_BASE64_CHARS + 8).map(lambda n: b"QUJD" * (n // 4)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_pieces, max_size=40).map(b"".join), st.sampled_from([1, 5, 64, 4096, 1 << 20]))
def test_base64_tokens_are_those_of_the_plain_definition_wherever_windows_fall(
    data: bytes, window: int
) -> None:
    classes = data.translate(pattern_scanner._TOKEN_CLASSES)
    found = [
        token
        for start, end, limit in _windows(len(data), window)
        for token in _base64_runs(data, classes, start, end, limit)
    ]
    assert found == _plain_base64_tokens(data)


_utf16le_pieces = st.one_of(
    _pieces,
    st.sampled_from(
        [TOKEN, "password=Qx7vR2mK9pLw4Zt", "https://u:Qx7vR2@db", "pwd=", "x", "ab", "\n"]
    ).map(lambda text: text.encode("utf-16-le")),
    st.text(max_size=8).map(lambda text: text.encode("utf-16-le", "surrogatepass")),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_utf16le_pieces, max_size=30).map(b"".join), st.sampled_from([1, 7, 1 << 20]))
def test_windows_passed_over_by_the_utf16le_look_hold_no_utf16le_finding(
    data: bytes, chunk: int
) -> None:
    def scanned() -> list[SecretMatch]:
        scan = PatternSecretScanner().start()
        for start in range(0, len(data), chunk):
            scan.feed(data[start : start + chunk])
        return scan.finish_matches()

    with mock.patch.object(pattern_scanner, "_may_hold_utf16le_text", return_value=True):
        unfiltered = scanned()
    assert scanned() == unfiltered


def test_utf16le_text_is_seen_only_with_three_printable_characters_in_a_row() -> None:
    assert _may_hold_utf16le_text("abc".encode("utf-16-le"), 0, 6)
    assert _may_hold_utf16le_text(b"\x00" + "x=1".encode("utf-16-le"), 0, 7)
    assert not _may_hold_utf16le_text("ab".encode("utf-16-le") + b"\x01\x00c\x00", 0, 8)
    assert not _may_hold_utf16le_text("a c".encode("utf-16-le"), 0, 6)
    assert not _may_hold_utf16le_text(b"\x00\x00" * 100, 0, 200)
    # Outside [start, limit) is not looked at.
    assert not _may_hold_utf16le_text("abc".encode("utf-16-le"), 1, 6)


def test_a_utf16le_token_is_found_after_a_binary_prefix_of_nuls() -> None:
    data = b"\x00\x01" * 5000 + f"GH {TOKEN}\n".encode("utf-16-le")
    kinds = {finding.kind for finding in PatternSecretScanner().scan_bytes(data)}
    assert kinds == {SecretKind.GITHUB_TOKEN}


_ANCHORED = [pattern for pattern in PATTERNS if pattern.anchor]
_ANCHOR_PIECES = [b"J", b"G", b"eyJ", b"SG.", b".", b"-", b"_", b"x", b" ", b"\n", b"J" * 40]
_JWT_PIECES = [b"eyJhbGciOiJIUzI1NiJ9", b"eyJzdWIiOjF9", b"c2lnbmF0dXJlMTIz", b"ab" * 300]
_LITERAL_PIECES = [b"authorization: bearer ", b"Authorization", b"secret", b"token", b"api"]
_VALUE_PIECES = [
    b"=",
    b": ",
    b'"',
    b"Qx7vR2mK9pLw4Zt",
    b"://",
    b"u:p@h",
    b"hooks.slack.com/services/T",
]
_anchor_texts = st.lists(
    st.sampled_from(
        [*_ANCHOR_PIECES, *_JWT_PIECES, *_LITERAL_PIECES, *_VALUE_PIECES, b"SG." + b"aB3dE5" * 9]
    ),
    max_size=80,
).map(b"".join)


def test_anchors_are_pieces_of_their_patterns_leading_literals() -> None:
    assert _ANCHORED
    for pattern in _ANCHORED:
        parsed = re._parser.parse(pattern.regex.pattern)  # type: ignore[attr-defined]
        leading = parsed.data[: pattern.anchor_offset + len(pattern.anchor)]
        assert all(op is re._constants.LITERAL for op, _ in leading)  # type: ignore[attr-defined]
        assert bytes(value for _, value in leading)[pattern.anchor_offset :] == pattern.anchor


@settings(max_examples=300, deadline=None)
@given(_anchor_texts, st.integers(0, 50))
def test_hopping_to_anchors_finds_what_the_regex_finds(text: bytes, start: int) -> None:
    for pattern in _ANCHORED:
        searched = text.lower() if pattern.lower else text
        hopped = [m.span() for m in pattern_scanner._matches(pattern, searched, start, len(text))]
        assert hopped == [m.span() for m in pattern.regex.finditer(searched, start, len(text))]


def test_a_jwt_is_found_after_many_anchor_bytes() -> None:
    """Past a stretch dense with the anchor (the regex engine takes over there) and after it."""
    jwt = b"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2lnbmF0dXJlMTIz"
    data = b"J J " * 5000 + b"\n" + jwt + b"\n" + b"x" * 100_000 + b"\n" + jwt + b"\n"
    lines = [f.line for f in PatternSecretScanner().scan_bytes(data) if f.kind is SecretKind.JWT]
    assert lines == [2, 4]
