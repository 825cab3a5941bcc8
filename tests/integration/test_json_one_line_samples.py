"""A long one-line JSON document is sampled in windows that start after a key's end (`":`):
whatever its strings hold (quotes, `":`, backslashes, brackets, other scripts, in keys and in
values), its smart fit stays within the budget, exactly counted, and parses. Real tokenizer,
real parser."""

from __future__ import annotations

import bisect
import json
import random
import re

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.json.token_ratios import (
    LayoutRatios,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

COUNTER = TiktokenCounter("cl100k_base")
HOSTILE = 'abcdefXYZ ":\\,{}[]é\u00a0ü"'


def _hostile_text(rng: random.Random, longest: int) -> str:
    """Quotes, colons, backslashes and brackets anywhere but first (a string that begins with
    a colon is the one case a window's start cannot tell from a key's end)."""
    return "x" + "".join(rng.choices(HOSTILE, k=rng.randint(0, longest)))


def _value(rng: random.Random, depth: int) -> object:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        kind = rng.random()
        if kind < 0.6:
            return _hostile_text(rng, 300)
        if kind < 0.8:
            return rng.randint(-(10**6), 10**6)
        return None if kind < 0.9 else rng.random() < 0.5
    if roll < 0.7:
        return {
            '"k":' + _hostile_text(rng, 10): _value(rng, depth + 1)
            for _ in range(rng.randint(0, 8))
        }
    return [_value(rng, depth + 1) for _ in range(rng.randint(0, 10))]


def _document(seed: int) -> str:
    rng = random.Random(seed)
    value = {"items": [_value(rng, 0) for _ in range(150)]}
    return json.dumps(value, separators=(",", ":"), ensure_ascii=seed % 2 == 0)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_hostile_one_line_document_fits_exactly_and_parses(seed: int) -> None:
    text = _document(seed)
    assert "\n" not in text
    assert len(text) > 64 * 1024  # sampled in windows, not counted whole
    raw = COUNTER.count(text)
    for share in (0.05, 0.3, 0.7):
        budget = int(raw * share)
        fitted = JsonCompressor().fit(text, TaskTerms(), budget, COUNTER, Handles())
        assert fitted is not None
        assert fitted.tokens == COUNTER.count(fitted.text) <= budget
        json.loads(fitted.text)


@pytest.mark.parametrize("seed", [1, 2])
def test_its_windows_start_where_no_string_is_open(seed: int) -> None:
    """Each window after the first starts after a key's end, though the strings hold `\\":`
    (an escaped quote and a colon) everywhere: outside every string of the document."""
    text = _document(seed)
    spans = [match.span() for match in re.finditer(r'"(?:[^"\\]|\\.)*"', text)]
    inside = bisect.bisect_right
    starts_of_strings = [start for start, _ in spans]
    windows = LayoutRatios(COUNTER, text, pretty=False)._one_line_windows()
    assert len(windows) > 4
    for window in windows[1:]:
        offset = text.find(window[:200])  # where it starts (its head is unique)
        place = inside(starts_of_strings, offset) - 1  # the last string starting at or before
        opening, end = spans[place] if place >= 0 else (-1, -1)
        assert offset in (opening, end) or offset > end, text[offset - 20 : offset + 20]
    for limit in (0, 1, 40):
        assert 0 < LayoutRatios(COUNTER, text, pretty=False).compact_cut_strings(limit) < 1
