"""The scanner's hops from anchor to anchor find what the regex engine's own scan finds.

`_matches` skips ahead with `bytes.find` (to a pattern's anchor, past anchors too far from the
next companion byte) and tries the regex only there; every skip must lose no match. Checked on
texts made of the pieces a pattern's matches are made of, so that near misses, matches at the
greatest reach and runs of anchors all occur.
"""

from __future__ import annotations

import random
import re

import pytest

from cleveragents.adapters.secrets.pattern_model import SecretPattern
from cleveragents.adapters.secrets.pattern_scanner import _matches
from cleveragents.adapters.secrets.secret_patterns import PATTERNS

_HOPPING = tuple(pattern for pattern in PATTERNS if pattern.anchor)
_URL_PASSWORD = next(pattern for pattern in PATTERNS if pattern.companion == b"@")


def _spans(found: list[re.Match[bytes]]) -> list[tuple[int, int]]:
    return [match.span() for match in found]


def _hopped(pattern: SecretPattern, text: bytes, start: int, limit: int) -> list[tuple[int, int]]:
    return _spans(list(_matches(pattern, text, start, limit)))


def _scanned(pattern: SecretPattern, text: bytes, start: int, limit: int) -> list[tuple[int, int]]:
    return _spans(list(pattern.regex.finditer(text, start, limit)))


def _pieces(pattern: SecretPattern) -> list[bytes]:
    return [pattern.anchor, pattern.anchor, b":", b"=", b" ", b"\n", b"@", b"~", b".", b"-"]


def _text(rng: random.Random, pieces: list[bytes]) -> bytes:
    parts = []
    for _ in range(rng.randrange(1, 80)):
        if rng.random() < 0.4:
            parts.append(rng.choice(pieces))
        else:
            alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFQ_"
            parts.append(bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 200))))
    return b"".join(parts)


@pytest.mark.parametrize("pattern", _HOPPING, ids=lambda p: "+".join(p.kinds))
def test_hops_find_what_the_regex_engine_finds(pattern: SecretPattern) -> None:
    rng = random.Random(31)
    for _ in range(300):
        text = _text(rng, _pieces(pattern))
        searched = text.lower() if pattern.lower else text
        start = rng.randrange(0, len(searched) + 1)
        limit = rng.randrange(start, len(searched) + 1)
        assert _hopped(pattern, searched, start, limit) == _scanned(pattern, searched, start, limit)


@pytest.mark.parametrize("user", [0, 1, 127, 128, 129])
@pytest.mark.parametrize("password", [1, 2, 255, 256, 257])
def test_a_password_in_a_url_is_found_at_the_greatest_reach_of_its_at(
    user: int, password: int
) -> None:
    # Many URLs without an `@` before it, then one whose `@` is as far as it may be.
    text = b"see https://example.org/a " * 40 + (
        b"redis://" + b"u" * user + b":" + b"p" * password + b"@host/0 and ://x" * 3
    )
    found = _hopped(_URL_PASSWORD, text, 0, len(text))
    assert found == _scanned(_URL_PASSWORD, text, 0, len(text))
    assert bool(found) == (user <= 128 and password <= 256)


def test_anchors_far_before_the_next_at_are_passed_over_without_losing_a_match() -> None:
    rng = random.Random(7)
    for _ in range(200):
        pieces = [b"://", b"://a:b", b"@", b"@h", b":", b"x" * rng.randrange(1, 400), b" "]
        text = b"".join(rng.choice(pieces) for _ in range(rng.randrange(1, 60)))
        assert _hopped(_URL_PASSWORD, text, 0, len(text)) == _scanned(
            _URL_PASSWORD, text, 0, len(text)
        )


_FOUND_FROM_A_RARE_BYTE = tuple(pattern for pattern in PATTERNS if pattern.finder is not None)


def test_some_patterns_are_found_from_a_rare_byte() -> None:
    # Guards the test below against checking nothing.
    assert len(_FOUND_FROM_A_RARE_BYTE) >= 3


@pytest.mark.parametrize("pattern", _FOUND_FROM_A_RARE_BYTE, ids=lambda p: "+".join(p.rules))
def test_a_finder_finds_what_the_regex_engine_finds(pattern: SecretPattern) -> None:
    # Keywords (whole, cut, glued to each other, in runs), separators and values, so that
    # matches start inside other matches' values, at the window's start and at its limit.
    rng = random.Random(53)
    pieces = [
        b"token",
        b"secret",
        b"secret_access_key",
        b"api",
        b"api_key",
        b"dapi",
        b"ken",
        b"cret",
        b"pi",
        b"to",
        b"se",
        b"a",
        b"=",
        b": ",
        b'"',
        b"\\",
        b" ",
        b"\n",
        b"0123456789abcdef0123456789abcdef",
        b"-1",
    ]
    for _ in range(400):
        parts = []
        for _ in range(rng.randrange(1, 60)):
            if rng.random() < 0.6:
                parts.append(rng.choice(pieces))
            else:
                alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789_-=:"
                parts.append(bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 30))))
        text = b"".join(parts)
        start = rng.randrange(0, len(text) + 1)
        limit = rng.randrange(start, len(text) + 1)
        assert _hopped(pattern, text, start, limit) == _scanned(pattern, text, start, limit)
