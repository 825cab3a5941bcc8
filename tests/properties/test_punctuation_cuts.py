"""One line with no space nor line break (minified JSON, a bundled script, a long query string)
is cut before ASCII punctuation that follows an ASCII letter or digit: wherever that rule cuts,
the counts of the two sides add up, in cl100k_base and o200k_base; `prefix_within` cuts there
from the token starts (or one encode) without encoding the prefix again; and Tier 3 on such a
line keeps nearly its whole budget without encoding its head again."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import (
    TiktokenCounter,
    last_cut_at_or_before,
    load_encoding,
)
from cleveragents.application.services.artifact_compression.truncation import truncate_to_budget
from tests.properties.encode_spy import watch_encodes

ENCODINGS = ("cl100k_base", "o200k_base")
_RULE = re.compile(r"(?<=[A-Za-z0-9])[!-&(-/:-@\[-`{-~]")

# What the pre-tokenizers treat differently next to punctuation: letters of both cases and other
# scripts, marks after a letter, digits in runs longer than three, contractions after a word
# (o200k_base takes `'s` into the word), every ASCII punctuation character, slashes before line
# breaks, and whitespace that is no cut here.
_PARTS = [
    "a", "Z", "key", "Value", "ID", "é", "e\u0301", "文字", "7", "42", "12345", "'s", "'T", "'",
    '"', '":"', '","', '":', "{", "}", "[", "]", ":", ",", ".", "_", "-", "/", "//", "\\", "@",
    "#", "$", "%", "&", "(", ")", "*", "+", ";", "<", "=", ">", "?", "^", "`", "|", "~", "!",
    "\n", "/\n", "\t", "\u00a0",
]  # fmt: skip
_lines = st.lists(st.sampled_from(_PARTS), min_size=1, max_size=40).map("".join)
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
_minified = _json_values.map(lambda value: json.dumps(value, separators=(",", ":")))


def _count(encoding: str, text: str) -> int:
    return len(load_encoding(encoding).encode(text, disallowed_special=()))


@settings(max_examples=150)
@pytest.mark.parametrize("encoding", ENCODINGS)
@given(text=st.one_of(_lines, _minified))
def test_the_counts_of_the_two_sides_of_a_punctuation_cut_add_up(encoding: str, text: str) -> None:
    whole = _count(encoding, text)
    for found in _RULE.finditer(text, 1):
        cut = found.start()
        assert _count(encoding, text[:cut]) + _count(encoding, text[cut:]) == whole, cut


@settings(max_examples=100)
@pytest.mark.parametrize("encoding", ENCODINGS)
@given(text=st.one_of(_lines, _minified), limit=st.integers(1, 40), with_starts=st.booleans())
def test_prefix_within_fits_and_ends_where_the_counts_add_up(
    encoding: str, text: str, limit: int, with_starts: bool
) -> None:
    counter = TiktokenCounter(encoding)
    starts = counter.token_starts(text) if with_starts else None
    prefix = counter.prefix_within(text, limit, starts)
    assert text.startswith(prefix)
    assert counter.count(prefix) <= limit
    # A prefix that ends at a cut of the rules holds exactly the tokens before it; with no cut
    # in reach it is cut at a token boundary and only fits (`{"` of `{"\u001f":null}`).
    if prefix and prefix != text and last_cut_at_or_before(text, len(prefix)) == len(prefix):
        assert counter.count(prefix) + counter.count(text[len(prefix) :]) == counter.count(text)


def test_the_last_cut_at_or_before_a_limit_is_the_latest_of_every_rule() -> None:
    text = '{"note":"two words","id":12345,"tags":["a","b"]}'
    assert last_cut_at_or_before(text, len(text) - 1) == text.rindex('"]}')
    # A space cut stands before the limit, a punctuation cut after it: the later one wins.
    assert last_cut_at_or_before(text, text.index('","id"')) == text.index('","id"')
    assert last_cut_at_or_before(text, 0) is None
    assert last_cut_at_or_before("0" * 50, 40) is None  # digits alone: no cut


def _minified_records(count: int, seed: int) -> str:
    """An API response written compact, with strings that hold no space."""
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa"]
    records = [
        {
            "id": rng.randrange(10**9),
            "name": "-".join(rng.choices(words, k=3)),
            "state": rng.choice(["open", "closed", "merged"]),
            "labels": rng.sample(words, k=rng.randint(0, 3)),
            "score": round(rng.random() * 100, 3),
        }
        for _ in range(count)
    ]
    return json.dumps({"total": count, "items": records}, separators=(",", ":"))


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("share", [0.1, 0.5, 0.9])
def test_tier3_on_one_long_line_keeps_its_budget_without_encoding_the_head_again(
    encoding: str, share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = TiktokenCounter(encoding)
    text = _minified_records(400, seed=7)
    assert "\n" not in text
    assert " " not in text
    starts = counter.token_starts(text)
    budget = int(len(starts) * share)

    encoded = watch_encodes(monkeypatch)
    cut = truncate_to_budget(text, budget, len(starts), counter, starts)
    monkeypatch.undo()

    assert cut.tokens == counter.count(cut.content) <= budget
    assert text.startswith(cut.kept_text)
    marker = counter.count(cut.content) - counter.count(cut.kept_text)
    assert counter.count(cut.kept_text) >= budget - marker - 12  # a few tokens of one value
    assert max(encoded) < 256  # only the edges and the marker were encoded
