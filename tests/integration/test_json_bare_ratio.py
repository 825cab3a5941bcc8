"""The tokens per character of a pretty JSON input with its values bare (`LayoutRatios
.bare_strings`): what the levels that keep every key path and no value cost, which on a
document of long hashes is far below the input's own ratio. Real tokenizer."""

from __future__ import annotations

import hashlib
import json

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.token_ratios import (
    LayoutRatios,
)
from cleveragents.application.services.artifact_compression.kinds.json.writing import cut_string

COUNTER = TiktokenCounter("cl100k_base")


def _lock_like(count: int) -> str:
    packages = {
        f"node_modules/package-{index}": {
            "version": f"1.{index}.0",
            "integrity": "sha512-" + hashlib.sha512(str(index).encode()).hexdigest(),
        }
        for index in range(count)
    }
    return json.dumps({"packages": packages}, indent=2)


def test_long_values_go_bare_and_keys_and_short_values_stay() -> None:
    text = _lock_like(20)  # short: its one window is the whole text
    expected = "\n".join(
        line.split(": ")[0] + ': "…"' + line[-1:].replace('"', "")
        if '"integrity"' in line
        else line
        for line in text.split("\n")
    )
    ratios = LayoutRatios(COUNTER, text, pretty=True)
    assert ratios.bare_strings() == COUNTER.count(expected) / len(expected)
    assert '"node_modules/package-3": {' in expected  # a key stays, however long


def test_a_document_of_hashes_is_far_less_dense_once_its_values_are_bare() -> None:
    ratios = LayoutRatios(COUNTER, _lock_like(2000), pretty=True)
    assert ratios.bare_strings() < 0.8 * ratios[True]


def test_a_document_of_short_values_keeps_its_ratio() -> None:
    text = json.dumps([{"id": index, "ok": True, "tag": "abc"} for index in range(3000)], indent=2)
    ratios = LayoutRatios(COUNTER, text, pretty=True)
    assert abs(ratios.bare_strings() - ratios[True]) < 0.05 * ratios[True]


def _cut(value: object, limit: int) -> object:
    """`value` with every string longer than `limit` cut as the string limit cuts it."""
    if isinstance(value, dict):
        return {key: _cut(member, limit) for key, member in value.items()}
    if isinstance(value, str) and len(value) > limit:
        return cut_string(value, limit)
    return value


@pytest.mark.parametrize("limit", [1, 20, 64, 120, 500])
def test_values_cut_at_a_limit_are_written_as_that_level_writes_them(limit: int) -> None:
    """`cut_strings`: the input's windows with each value cut at the limit, keys kept. A
    short input is one window: its ratio is that of the whole input so written."""
    value = json.loads(_lock_like(20))
    value["packages"]["note"] = 'a "quoted" word and a back\\slash ' * 4  # escapes too
    text = json.dumps(value, indent=2, ensure_ascii=False)
    expected = json.dumps(_cut(value, limit), indent=2, ensure_ascii=False)
    ratios = LayoutRatios(COUNTER, text, pretty=True)
    assert ratios.cut_strings(limit) == COUNTER.count(expected) / len(expected)


def test_hashes_cut_short_are_less_dense_than_the_input() -> None:
    ratios = LayoutRatios(COUNTER, _lock_like(2000), pretty=True)
    assert ratios.bare_strings() < ratios.cut_strings(20) < ratios.cut_strings(60) < ratios[True]


@pytest.mark.parametrize("limit", [0, 1, 20, 120])
@pytest.mark.parametrize("pretty", [True, False])
def test_values_cut_at_a_limit_are_written_compact_as_that_level_writes_them(
    limit: int, pretty: bool
) -> None:
    """`compact_cut_strings`: the input's windows written compact, each value cut at the
    limit, keys kept, whatever the input's layout. A short input is one window."""
    value = json.loads(_lock_like(20))
    value["packages"]["note"] = 'a "quoted" word and a back\\slash ' * 4
    text = json.dumps(value, indent=2 if pretty else None, ensure_ascii=False)
    expected = json.dumps(_cut(value, limit), separators=(",", ":"), ensure_ascii=False)
    ratios = LayoutRatios(COUNTER, text, pretty=pretty)
    assert ratios.compact_cut_strings(limit) == COUNTER.count(expected) / len(expected)


class _Recording:
    """A counter that notes every text it is asked to count."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def count(self, text: str) -> int:
        self.texts.append(text)
        return COUNTER.count(text)


def test_a_long_compact_input_is_sampled_in_windows_not_counted_whole() -> None:
    """A minified input has no line to cut its windows at: they are spread over it all the
    same (a window cut at a line end would be the whole text, counted once per window)."""
    text = json.dumps(json.loads(_lock_like(3000)), separators=(",", ":"))
    recording = _Recording()
    ratio = LayoutRatios(recording, text, pretty=False).compact_cut_strings(0)  # type: ignore[arg-type]
    assert 0 < sum(map(len, recording.texts)) < len(text) // 4
    assert abs(ratio - COUNTER.count(text) / len(text)) < ratio  # a ratio, not garbage
