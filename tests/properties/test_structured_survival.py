"""What must survive smart compression of JSON, diffs and source, on generated artifacts of
random size compressed to random ratios (benchmarks/generated_structured.py writes them):

* JSON: the output parses at every ratio, and down to raw/5 keeps at least 90% of the
  document's distinct key paths whenever the budget holds the document's skeleton (every key
  path once, leaves null) twice over (an API response of ten events or more; a small one's
  values outweigh its keys);
* diffs: every changed file is named whenever a list of the files (with their counts, or the
  paths alone) fits the budget, the list first;
* source: the signature lines kept are in file order, and no body line is kept before every
  signature is.

Every output is counted with the real tokenizer and must fit its budget.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.generated_structured import (
    SOURCE_LANGUAGES,
    diff_mixed,
    json_api_response,
    json_deep,
    source_file,
)
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_compression.kinds.diff.file_list import file_lists
from cleveragents.application.services.artifact_compression.smart_mode import SUMMARY_ROOM
from cleveragents.domain.artifact import CompressionMode

COUNTER = TiktokenCounter("cl100k_base")
SERVICE = ArtifactCompressorService(
    FdContainedFiles(), COUNTER, TreeSitterSkeletonizer(), PatternSecretScanner()
)
RATIOS = st.sampled_from([1.2, 2.0, 3.0, 5.0, 8.0, 20.0])
KEY_PATHS_KEPT = 0.9


def _smart(name: str, text: str, ratio: float) -> tuple[str, int]:
    budget = max(int(COUNTER.count(text) / ratio), 1)
    content = SERVICE.compress_text(name, text, budget, mode=CompressionMode.SMART).content
    assert COUNTER.count(content) <= budget
    return content, budget


def _paths(value: Any, prefix: str = "") -> set[str]:
    """Every key path of a parsed document (``[]`` for an array's items); the omission
    markers (a ``…`` key, a marker item) are not keys."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key.strip("…"):
                path = f"{prefix}.{key}"
                found.add(path)
                found |= _paths(item, path)
    elif isinstance(value, list):
        for item in value:
            found |= _paths(item, f"{prefix}.[]")
    return found


def _skeleton(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _skeleton(item) for key, item in value.items()}
    if isinstance(value, list):
        merged: dict[str, Any] = {}
        for item in value:
            shape = _skeleton(item)
            if isinstance(shape, dict):
                merged.update(shape)
        return [merged] if merged else []
    return None


@settings(max_examples=25, deadline=None)
@given(
    size=st.integers(10, 60),
    shape=st.sampled_from(["pretty", "minified", "deep"]),
    ratio=RATIOS,
)
def test_json_keeps_its_key_paths_where_the_budget_holds_its_skeleton(
    size: int, shape: str, ratio: float
) -> None:
    document = (
        json_deep(size)
        if shape == "deep"
        else json_api_response(size, minified=shape == "minified")
    )
    content, budget = _smart(document.name, document.text, ratio)
    original = json.loads(document.text)
    kept = json.loads(content)  # valid JSON at every ratio
    skeleton = COUNTER.count(json.dumps(_skeleton(original), separators=(",", ":")))
    if ratio <= 5 and budget >= 2 * skeleton:
        paths = _paths(original)
        assert len(paths & _paths(kept)) >= KEY_PATHS_KEPT * len(paths)


@settings(max_examples=25, deadline=None)
@given(files=st.integers(1, 40), ratio=RATIOS)
def test_a_diff_names_every_file_whenever_the_list_of_files_fits(files: int, ratio: float) -> None:
    diff = diff_mixed(files)
    content, budget = _smart(diff.name, diff.text, ratio)
    summaries = file_lists(diff.text.splitlines())
    if any(COUNTER.count(summary) + SUMMARY_ROOM <= budget for summary in summaries):
        assert all(path in content for path in diff.files)
    if content.startswith("[… diff: "):  # a summary, when written, comes first, whole
        assert any(content.startswith(f"[… {summary}]\n") for summary in summaries)


@settings(max_examples=25, deadline=None)
@given(
    language=st.sampled_from(SOURCE_LANGUAGES),
    size=st.integers(1, 15),
    ratio=RATIOS,
)
def test_source_keeps_signatures_in_file_order_before_any_body(
    language: str, size: int, ratio: float
) -> None:
    source = source_file(language, size)
    content, _ = _smart(source.name, source.text, ratio)
    lines = [line.strip() for line in content.split("\n")]
    signatures = set(source.signatures)
    shown = [line for line in lines if line in signatures]
    remaining = iter(source.signatures)
    assert all(line in remaining for line in shown)  # in file order: a subsequence
    # Every body of the generated files counts into `total`: a line of one is a body line.
    if any("total" in line for line in lines):
        assert signatures <= set(lines)
