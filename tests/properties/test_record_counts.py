"""JSON written compact, counted by its records inside a `remembering` block: the records join
back into the text and are cut only where the counts add up; every count equals one encode, in
both encodings, on generated arrays of records (nested, empty, strings that end in a space or
hold the separator, letters of other scripts); a second count encodes only the records it
changed; a hostile text with the separator everywhere and no cut stays one record; and what
is remembered stops at its cap."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens import record_chunks, tiktoken_counter
from cleveragents.adapters.tokens.record_chunks import SEPARATOR, count_by_records, records
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter, load_encoding
from tests.properties.encode_spy import watch_encodes

ENCODINGS = ("cl100k_base", "o200k_base")
_ASCII_LETTERS_AND_DIGITS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

_strings = st.lists(st.sampled_from([*"abcZ09 _-'\"\\/é文🚀}{,:[]\n", "},{"]), max_size=12).map(
    "".join
)
_scalars = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | _strings
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_strings, inner, max_size=3),
    max_leaves=6,
)
_record_lists = st.lists(st.dictionaries(_strings, _values, max_size=4), min_size=0, max_size=90)


def _compact(value: object, *, ascii_only: bool) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=ascii_only)


def _count(encoding: str, text: str) -> int:
    return len(load_encoding(encoding).encode(text, disallowed_special=()))


@pytest.fixture
def few_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short generated arrays reach the records' path."""
    monkeypatch.setattr(record_chunks, "MIN_RECORDS", 2)


@pytest.mark.usefixtures("few_records")
@settings(max_examples=200, deadline=None)
@given(items=_record_lists, ascii_only=st.booleans())
def test_records_join_into_the_text_and_are_cut_before_punctuation_after_a_letter_or_digit(
    items: list[object], ascii_only: bool
) -> None:
    text = _compact({"items": items}, ascii_only=ascii_only)
    found = records(text)
    if found is None:
        assert text.count(SEPARATOR) < record_chunks.MIN_RECORDS or _no_cut(text)
        return
    assert "".join(found) == text
    for record in found[:-1]:
        assert record[-1] in _ASCII_LETTERS_AND_DIGITS
    for record in found[1:]:
        assert record[0] in record_chunks._PUNCTUATION


@pytest.mark.usefixtures("few_records")
@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=80, deadline=None)
@given(items=_record_lists, ascii_only=st.booleans(), seed=st.integers(0, 2**16))
def test_counts_by_records_are_the_tokenizers_and_a_candidate_shares_them(
    encoding: str, items: list[object], ascii_only: bool, seed: int
) -> None:
    counter = TiktokenCounter(encoding)
    text = _compact(items, ascii_only=ascii_only)
    candidate = _compact(random.Random(seed).sample(items, len(items) // 2), ascii_only=ascii_only)
    with counter.remembering():
        assert counter.count(text) == _count(encoding, text)
        assert counter.count(candidate) == _count(encoding, candidate)
        assert counter.count(text) == _count(encoding, text)  # every record remembered


def _api_response(count: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "kappa"]
    return [
        {
            "id": rng.randrange(10**9),
            "title": " ".join(rng.choices(words, k=4)),
            "state": rng.choice(["open", "closed"]),
            "labels": rng.sample(words, k=rng.randint(0, 2)),
        }
        for _ in range(count)
    ]


def test_a_candidate_encodes_only_the_records_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    items = _api_response(2000, seed=5)
    text = _compact(items, ascii_only=True)
    changed = [dict(item) for item in items[:1500]]
    for item in changed[::100]:
        item["title"] = "cut …"
    candidate = _compact(changed, ascii_only=False)

    counter = TiktokenCounter()
    with counter.remembering():
        assert counter.count(text) == _count("cl100k_base", text)
        encoded = watch_encodes(monkeypatch)
        assert counter.count(candidate) == _count("cl100k_base", candidate)
    # The 15 changed records (and the records' ends next to them), the first and the last.
    assert sum(encoded) < 20 * max(len(_compact(item, ascii_only=False)) for item in changed)


def _no_cut(text: str) -> bool:
    """Whether fewer than `MIN_RECORDS` of the separators follow a letter or digit, once the
    punctuation before them is set aside."""
    parts = text.split(SEPARATOR)[:-1]
    cuts = [part.rstrip(record_chunks._PUNCTUATION)[-1:] for part in parts]
    found = sum(1 for end in cuts if end and end in _ASCII_LETTERS_AND_DIGITS) + 1
    return found < record_chunks.MIN_RECORDS


def test_a_text_with_the_separator_everywhere_and_no_cut_is_no_array_of_records() -> None:
    # Every object ends in a string that ends in a space: no letter or digit before `"},{`.
    # (Joining what lies between the separators once, not again at each: this returns at once.)
    text = "[" + ",".join(['{"a":"x "}'] * 300_000) + "]"
    assert records(text) is None
    counter = TiktokenCounter()
    with counter.remembering():
        assert counter.count(text) == _count("cl100k_base", text)


def test_what_is_remembered_stops_at_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    small = _compact(_api_response(70, seed=9), ascii_only=True)
    large = _compact(_api_response(400, seed=9), ascii_only=True)
    weight = record_chunks._RECORD_WEIGHT
    monkeypatch.setattr(record_chunks, "_MAX_REMEMBERED_CHARS", len(small) + 70 * weight)
    encoding = load_encoding("cl100k_base")
    remembered: dict[str, int] = {}

    def tokens_up_to(piece: str, ends: Iterable[int]) -> list[int]:
        return tiktoken_counter._tokens_up_to(encoding, piece, ends)

    count = TiktokenCounter().count
    assert count_by_records(large, remembered, tokens_up_to, count) == _count("cl100k_base", large)
    assert remembered == {}  # its records hold more than the cap: none is kept
    assert count_by_records(small, remembered, tokens_up_to, count) == _count("cl100k_base", small)
    assert 0 < remembered[record_chunks._TALLY] <= len(small) + 70 * weight
    # Many tiny records weigh more than their characters: the weight keeps their number down.
    tiny = "[" + ",".join(f'{{"a":{n}}}' for n in range(1_000)) + "]"
    assert len(tiny) < len(small) + 70 * weight  # fewer characters than the cap takes
    remembered = {}
    assert count_by_records(tiny, remembered, tokens_up_to, count) == _count("cl100k_base", tiny)
    assert remembered == {}  # but 1,000 records weigh some 130,000
