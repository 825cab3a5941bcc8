"""count_packed reads most of a packed text's count from located tokens: it must equal the
real tokenizer's count of the whole, on real files and on any lines."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.segment_count import (
    LineSource,
    count_packed,
)
from tests.conftest import CORPUS, TEST_DATA

ENCODINGS = ("cl100k_base", "o200k_base")


def packed(lines: list[str], keep: list[bool]) -> tuple[str, list[tuple[int, int]]]:
    """Kept lines, runs of dropped ones as a marker, then a final marker, as packing does."""
    parts: list[str] = []
    layout: list[tuple[int, int]] = []
    offset = 0
    dropped = 0
    for position, (line, kept) in enumerate(zip(lines, keep, strict=True)):
        if not kept:
            dropped += 1
            continue
        if dropped:
            parts.append(f"[... {dropped} lines omitted ...]")
            offset += len(parts[-1]) + 1
            dropped = 0
        layout.append((position, offset))
        parts.append(line)
        offset += len(line) + 1
    if dropped:
        parts.append(f"[... {dropped} lines omitted ...]")
    return "\n".join([*parts, "[TRUNCATED: 42 tokens omitted]"]), layout


def check(lines: list[str], keep: list[bool], encoding: str) -> None:
    counter = TiktokenCounter(encoding)
    source = LineSource.of(lines, counter.token_starts("\n".join(lines) + "\n"))
    content, layout = packed(lines, keep)
    assert count_packed(content, layout, source, counter) == counter.count(content)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_exact_on_real_files(encoding: str) -> None:
    paths = sorted(CORPUS.glob("*/*")) if CORPUS.is_dir() else []
    paths += sorted(TEST_DATA.glob("*.*"))
    rng = random.Random(7)
    checked = 0
    for path in paths:
        if not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")[:3000]
        for share in (0.3, 0.7, 0.95):
            check(lines, [rng.random() < share for _ in lines], encoding)
            checked += 1
    assert checked > 20


_PIECES = st.sampled_from(
    ["a", "Z", "9", " ", "  ", "\t", ".", "#", "|", "é", "日本", "😀", "'s", "{", "-", "\r", ""]
)
_LINE = st.lists(_PIECES, max_size=12).map("".join)


@settings(max_examples=200)
@given(lines=st.lists(_LINE, min_size=1, max_size=40), seed=st.integers(0, 1000))
def test_exact_on_any_lines(lines: list[str], seed: int) -> None:
    rng = random.Random(seed)
    keep = [rng.random() < 0.6 for _ in lines]
    for encoding in ENCODINGS:
        check(lines, keep, encoding)
