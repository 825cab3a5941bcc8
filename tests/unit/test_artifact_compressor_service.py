"""The artifact compressor's tier logic with a tokenizer that fails (the heuristic fallback)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.counting.heuristic_counter import (
    HEURISTIC_WARNING,
)
from cleveragents.domain.artifact import CompressionMode
from cleveragents.domain.errors import TokenCountingError
from tests.fakes import FakeTokenCounter


class BrokenTokenCounter(TokenCounter):
    @property
    def encoding_name(self) -> str:
        return "broken"

    def count(self, text: str) -> int:
        raise TokenCountingError("vocabulary missing")

    def count_stream(self, chunks: Iterable[str]) -> int:
        raise TokenCountingError("vocabulary missing")

    def prefix_within(self, text: str, max_tokens: int, starts: Sequence[int] | None = None) -> str:
        raise TokenCountingError("vocabulary missing")

    def token_starts(self, text: str) -> Sequence[int]:
        raise TokenCountingError("vocabulary missing")


class NoSkeletons(SourceSkeletonizer):
    @property
    def languages(self) -> frozenset[str]:
        return frozenset()

    def skeleton(self, source: str, language: str) -> str | None:
        return None


def _service() -> ArtifactCompressorService:
    return ArtifactCompressorService(
        FdContainedFiles(), BrokenTokenCounter(), NoSkeletons(), PatternSecretScanner()
    )


def test_failing_tokenizer_falls_back_to_the_heuristic_and_says_so() -> None:
    text = "x" * 400
    result = _service().compress_text("notes.txt", text, 500)
    assert result.raw_tokens == math.ceil(len(text) / 4) == 100
    assert result.content == HEURISTIC_WARNING + text
    assert result.truncated is False
    assert result.compacted_tokens == math.ceil(len(result.content) / 4)


def test_heuristic_budget_includes_the_warning() -> None:
    text = "\n\n".join("paragraph " * 20 for _ in range(50))
    result = _service().compress_text("notes.txt", text, 300)
    assert result.content.startswith(HEURISTIC_WARNING)
    assert result.truncated is True
    assert result.compacted_tokens <= 300
    assert "[TRUNCATED: content exceeds budget, remaining" in result.content


class FailsOnLongTexts(TokenCounter):
    """A working counter for short texts; long ones fail (as a tokenizer that runs out of
    memory would). The guess counts a short sample; the raw count then fails."""

    limit = 60_000

    def __init__(self) -> None:
        self._real = FakeTokenCounter()

    @property
    def encoding_name(self) -> str:
        return self._real.encoding_name

    def _check(self, text: str) -> None:
        if len(text) > self.limit:
            raise TokenCountingError("out of memory")

    def count(self, text: str) -> int:
        self._check(text)
        return self._real.count(text)

    def count_stream(self, chunks: Iterable[str]) -> int:
        return self.count("".join(chunks))

    def prefix_within(self, text: str, max_tokens: int, starts: Sequence[int] | None = None) -> str:
        self._check(text)
        return self._real.prefix_within(text, max_tokens, starts)

    def token_starts(self, text: str) -> Sequence[int]:
        self._check(text)
        return self._real.token_starts(text)


def test_a_count_failing_on_a_long_text_falls_back() -> None:
    """The raw count of a long text fails: the heuristic fallback applies, and says so."""
    section = "## Step\n\nThe service must validate the request. It then stores it.\n\n"
    text = section * 6_000  # about 400 KB: the forms are longer than the counter's limit
    service = ArtifactCompressorService(
        FdContainedFiles(), FailsOnLongTexts(), NoSkeletons(), PatternSecretScanner()
    )
    result = service.compress_text("plan.md", text, 2_000, mode=CompressionMode.SMART)
    assert result.content.startswith(HEURISTIC_WARNING)
    assert result.raw_tokens == math.ceil(len(text) / 4)
    assert result.compacted_tokens <= 2_000


class FailsAfterTheRawCount(FailsOnLongTexts):
    """A working counter for the first encode (the raw count); every later one fails."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def _check(self, text: str) -> None:
        self.calls += 1
        if self.calls > 1:
            raise TokenCountingError("out of memory")


@pytest.mark.parametrize("mode", list(CompressionMode))
def test_a_count_failing_after_the_raw_count_succeeded_still_falls_back(
    mode: CompressionMode,
) -> None:
    """The raw count succeeds; a later count fails. The whole compression then falls back to
    the heuristic, as if the raw count had failed, instead of letting the error escape."""
    text = "".join(f"step {i}: the cat sat on the mat\n" for i in range(3000))
    service = ArtifactCompressorService(
        FdContainedFiles(), FailsAfterTheRawCount(), NoSkeletons(), PatternSecretScanner()
    )
    result = service.compress_text("notes.txt", text, 4_000, mode=mode)
    assert result.content.startswith(HEURISTIC_WARNING)
    assert result.raw_tokens == math.ceil(len(text) / 4)
    assert result.compacted_tokens <= 4_000
