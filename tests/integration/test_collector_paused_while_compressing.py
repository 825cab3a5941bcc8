"""The cyclic garbage collector does not run while an artifact is compressed, and runs again
after, as it did before: nested and concurrent compressions share one pause, and a collector the
host program turned off stays off.

The real tokenizer, scanner and grammars; threads ordered by events, never by sleeps."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator, Sequence

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.ports.token_counter import TextPiece
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_compression.collector_pause import (
    collector_paused,
)
from cleveragents.domain.artifact import CompressionMode

LOG = "".join(
    f"2026-01-0{i % 9 + 1} 12:00:{i % 60:02d} {'ERROR' if i % 97 == 0 else 'INFO'} "
    f"worker-{i % 7} handled request {i} in {i % 13} ms\n"
    for i in range(3000)
)


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The collector on, as a host program has it."""
    was_enabled = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was_enabled:
            gc.disable()


class _Watching(TiktokenCounter):
    """The real counter, noting whether the collector was on at each count it made."""

    def __init__(self) -> None:
        super().__init__("cl100k_base")
        self.collector_on: list[bool] = []

    def count(self, text: str) -> int:
        self.collector_on.append(gc.isenabled())
        return super().count(text)

    def token_starts(self, text: str) -> Sequence[int]:
        self.collector_on.append(gc.isenabled())
        return super().token_starts(text)

    def count_pieces(self, pieces: Sequence[TextPiece], source_starts: Sequence[int]) -> int:
        self.collector_on.append(gc.isenabled())
        return super().count_pieces(pieces, source_starts)


def _service(counter: TiktokenCounter) -> ArtifactCompressorService:
    return ArtifactCompressorService(
        FdContainedFiles(), counter, TreeSitterSkeletonizer(), PatternSecretScanner()
    )


@pytest.mark.usefixtures("collector_on")
@pytest.mark.parametrize("mode", [CompressionMode.TIERED, CompressionMode.SMART])
@pytest.mark.parametrize("budget", [600, 2000, 100_000])
def test_the_collector_is_off_while_compressing_and_on_after(
    mode: CompressionMode, budget: int
) -> None:
    counter = _Watching()
    result = _service(counter).compress_text("service.log", LOG, budget, mode=mode)
    assert result.compacted_tokens <= budget
    assert counter.collector_on
    assert not any(counter.collector_on)
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_a_failed_compression_resumes_the_collector() -> None:
    paused: list[bool] = []

    def failing() -> None:
        with collector_paused():
            paused.append(not gc.isenabled())
            raise ValueError("the compression failed")

    with pytest.raises(ValueError, match="the compression failed"):
        failing()
    assert paused == [True]
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_nested_pauses_resume_the_collector_when_the_outer_one_ends() -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_host_stays_off() -> None:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        if was_enabled:
            gc.enable()


@pytest.mark.usefixtures("collector_on")
def test_concurrent_compressions_share_one_pause() -> None:
    first_in = threading.Event()
    second_in = threading.Event()
    first_out = threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_in.wait(timeout=30)
        first_out.set()

    def second() -> None:
        first_in.wait(timeout=30)
        with collector_paused():
            second_in.set()
            first_out.wait(timeout=30)
            seen["after the first left"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert first_out.is_set()
    assert seen == {"after the first left": False}
    assert gc.isenabled()
