"""The JSON compressor on the GitHub API fixtures of octokit/fixtures (MIT) in
`../shared/corpus/json/` (skipped when the corpus is absent): Tier 2 keeps every key and the
shape, and gives the same output every time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.conftest import TEST_DATA, corpus_files
from tests.json_samples import key_paths, marker, without_markers

NO_TERMS = TaskTerms()
COMPRESSOR = JsonCompressor()
JSON_FILES = [
    *corpus_files("json", "*.json"),
    TEST_DATA / "github-labels-excerpt.json",
]


def assert_tier2_shape(original: object, compressed: object) -> None:
    """Walk both documents side by side: same keys in the same order, arrays over 10 items as
    5 + marker + 2, strings over 200 characters cut with the count of what was cut."""
    if isinstance(original, dict):
        assert isinstance(compressed, dict)
        assert list(compressed) == list(original)
        for key, item in original.items():
            assert_tier2_shape(item, compressed[key])
    elif isinstance(original, list):
        assert isinstance(compressed, list)
        if len(original) > 10:
            assert len(compressed) == 8
            assert compressed[5] == marker(len(original) - 7)
            pairs = zip(original[:5] + original[-2:], compressed[:5] + compressed[-2:], strict=True)
        else:
            pairs = zip(original, compressed, strict=True)
        for item, new in pairs:
            assert_tier2_shape(item, new)
    elif isinstance(original, str) and len(original) > 200:
        assert compressed == f"{original[:200]}... ({len(original) - 200} chars omitted)"
    else:
        assert compressed == original


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda path: path.name)
def test_tier2_on_real_json_keeps_every_key_and_the_shape(path: Path) -> None:
    """Tier 2 is to "keep all keys and structure". Omitting array items can in principle
    lose a key that only an omitted item has; so the per-item guarantee is the shape walk
    below, and the set of key paths (keys by the path of keys that leads to them, indices
    ignored) is asserted equal on the real data, whose arrays are homogeneous."""
    text = path.read_text(encoding="utf-8")
    out = COMPRESSOR.tier2(text, NO_TERMS)
    original, compressed = json.loads(text), json.loads(out)
    assert_tier2_shape(original, compressed)
    assert without_markers(key_paths(compressed)) == key_paths(original)
    assert out == json.dumps(compressed, ensure_ascii=False, indent=2)  # pretty like the input
    assert len(out) < len(text)


@pytest.mark.parametrize("path", JSON_FILES, ids=lambda path: path.name)
def test_tier2_is_deterministic(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert COMPRESSOR.tier2(text, NO_TERMS) == COMPRESSOR.tier2(text, NO_TERMS)
