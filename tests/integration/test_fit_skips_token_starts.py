"""A kind whose smart mode is its own fit (JSON) is counted without token starts: the fit counts
what it renders, and only packing lines or the head cut need where the raw tokens start. When
the fit gives way (JSON that does not parse), the lines are still packed exactly.

The real tokenizer (counting its own calls), the real scanner and grammars."""

from __future__ import annotations

import json
from collections.abc import Sequence

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.domain.artifact import CompressionMode


class _StartsCounted(TiktokenCounter):
    """The real counter, saying how many texts it found the token starts of."""

    def __init__(self) -> None:
        super().__init__("cl100k_base")
        self.starts_asked = 0

    def token_starts(self, text: str) -> Sequence[int]:
        self.starts_asked += 1
        return super().token_starts(text)


def _service(counter: TiktokenCounter) -> ArtifactCompressorService:
    return ArtifactCompressorService(
        FdContainedFiles(), counter, TreeSitterSkeletonizer(), PatternSecretScanner()
    )


DOCUMENT = json.dumps(
    {"items": [{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(300)]},
    indent=2,
)


def test_json_in_smart_mode_is_fitted_without_token_starts() -> None:
    counter = _StartsCounted()
    result = _service(counter).compress_text("items.json", DOCUMENT, 400)
    assert result.compacted_tokens <= 400
    json.loads(result.content)
    assert counter.starts_asked == 0


def test_tiered_json_and_smart_logs_still_count_starts_once() -> None:
    counter = _StartsCounted()
    service = _service(counter)
    service.compress_text("items.json", DOCUMENT, 400, mode=CompressionMode.TIERED)
    log = "\n".join(f"2024-01-01 10:00:{i % 60:02d} INFO step {i} done" for i in range(500))
    service.compress_text("run.log", log, 300)
    assert counter.starts_asked == 2


def test_json_that_does_not_parse_is_packed_as_lines_within_the_budget() -> None:
    counter = _StartsCounted()
    broken = DOCUMENT[: len(DOCUMENT) // 2]  # cut off mid-document, as a tool's output may be
    result = _service(counter).compress_text("items.json", broken, 300)
    assert result.compacted_tokens <= 300
    assert counter.count(result.content) == result.compacted_tokens
    assert "lines" in result.content  # a marker names the omitted lines
    assert counter.starts_asked == 1  # found when the packing needed them
