"""Line numbers of findings, which the scanner counts only when a finding needs one: the same
whatever the pieces the stream is fed in, across windows, with or without findings before."""

from __future__ import annotations

import random

import pytest

from cleveragents.adapters.secrets.pattern_scanner import WINDOW_BYTES, PatternSecretScanner
from tests.secret_samples import fake_aws_access_key_id


def _document(rng: random.Random, lines: int, keys: int) -> tuple[bytes, list[int]]:
    """Lines of prose, with a key id on `keys` of them (as the only key on its line)."""
    words = ["alpha", "beta", "gamma", "delta", "the", "of", "log", "value", "x=1", "-", "_"]
    rows = [" ".join(rng.choice(words) for _ in range(rng.randrange(0, 40))) for _ in range(lines)]
    where = sorted(rng.sample(range(lines), keys))
    for index, row in enumerate(where):
        rows[row] += f" key {fake_aws_access_key_id(index + 1)} here"
    return "\n".join(rows).encode(), [row + 1 for row in where]


def _lines(data: bytes, sizes: list[int]) -> list[int]:
    scan = PatternSecretScanner().start()
    position = 0
    for size in sizes:
        scan.feed(data[position : position + size])
        position += size
    scan.feed(data[position:])
    return [finding.line for finding in scan.finish()]


@pytest.mark.parametrize("keys", [0, 1, 3, 40])
def test_lines_are_the_same_whatever_the_pieces(keys: int) -> None:
    rng = random.Random(keys)
    data, expected = _document(rng, 30_000, keys)
    assert len(data) > 3 * WINDOW_BYTES
    random_sizes = [rng.randrange(1, 200_000) for _ in range(40)]
    for sizes in ([], [7_001] * 200, [65_536] * 40, [300_001] * 5, random_sizes, [len(data)]):
        assert _lines(data, sizes) == expected


def test_a_key_after_many_windows_without_findings_has_its_line() -> None:
    rng = random.Random(5)
    data, _ = _document(rng, 60_000, 0)
    key = fake_aws_access_key_id(9).encode()
    tail = b"\n\nlast " + key + b"\n"
    whole = data + tail
    found = PatternSecretScanner().match_bytes(whole)
    assert [match.line for match in found] == [data.count(b"\n") + 3]
