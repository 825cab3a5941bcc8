"""Files over the streaming threshold: counted in chunks, and in smart mode a log's candidate
lines packed with the same markers as in memory. The threshold is lowered so that the test
files stay small; the real one is 32 MiB."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.domain.artifact import CompressionMode
from tests.secret_samples import fake_aws_access_key_id

GAP = re.compile(r"\[… (?:×\d+ like the line above: )?lines? (\d+)(?:-(\d+))?\]")
CUT = re.compile(r" \[… rest of line (\d+)\]$")
COUNTER = TiktokenCounter("cl100k_base")


def _service() -> ArtifactCompressorService:
    return ArtifactCompressorService(
        FdContainedFiles(),
        COUNTER,
        TreeSitterSkeletonizer(),
        PatternSecretScanner(),
        large_artifact_bytes=10_000,
    )


def _log(key: str) -> str:
    lines = [
        f"2024-05-01 10:{i // 60 % 60:02d}:{i % 60:02d} INFO worker batch {i} done"
        for i in range(3000)
    ]
    for i in range(1000, 1016):
        lines[i] = "2024-05-01 10:16:40 WARN retrying connection to db-1"
    lines[1500] = f"2024-05-01 10:25:00 ERROR upload refused for AWS_ACCESS_KEY_ID={key}"
    lines[2990] = "2024-05-01 10:49:50 ERROR payment gateway timed out after 30s"
    return "\n".join(lines) + "\n"


def _reassembled(content: str, original: list[str]) -> list[str]:
    out: list[str] = []
    for line in content.split("\n")[:-1]:
        found = GAP.fullmatch(line) or CUT.search(line)
        if found is None:
            out.append(line)
        else:
            first = int(found.group(1))
            last = int(found.group(2) or first) if found.re is GAP else first
            out.extend(original[first - 1 : last])
    return out


@pytest.mark.parametrize("budget", [120, 400, 3_000])
def test_a_streamed_log_keeps_the_last_error_and_loses_nothing(tmp_path: Path, budget: int) -> None:
    key = fake_aws_access_key_id()
    text = _log(key)
    (tmp_path / "big.log").write_text(text)
    outcome = _service().compress(
        "big.log", budget, workdir=str(tmp_path), mode=CompressionMode.SMART
    )
    result = outcome.result
    assert result.raw_tokens == COUNTER.count(text)
    assert result.compacted_tokens == COUNTER.count(result.content) <= budget
    assert result.compacted_tokens >= 0.85 * budget
    assert "payment gateway timed out after 30s" in result.content
    assert key not in result.content
    original = text.split("\n")[:-1]
    redacted = [line if key not in line else "" for line in original]
    kept = _reassembled(result.content, original)
    assert len(kept) == len(original)
    for got, want, clean in zip(kept, original, redacted, strict=True):
        assert got == want or (clean == "" and "[REDACTED:aws-access-key-id]" in got)


def test_a_streamed_log_counts_repeats(tmp_path: Path) -> None:
    (tmp_path / "big.log").write_text(_log(fake_aws_access_key_id()))
    result = (
        _service()
        .compress("big.log", 400, workdir=str(tmp_path), mode=CompressionMode.SMART)
        .result
    )
    assert re.search(r"\[… ×\d+ like the line above: lines \d+-1000\]", result.content)
    assert result.content.count("WARN retrying connection to db-1") < 16


def test_a_streamed_file_in_seed_mode_is_cut_at_its_head(tmp_path: Path) -> None:
    text = _log(fake_aws_access_key_id())
    (tmp_path / "big.log").write_text(text)
    result = _service().compress("big.log", 300, workdir=str(tmp_path)).result
    assert result.truncated
    assert result.content.startswith("2024-05-01 10:00:00 INFO worker batch 0 done")
    assert result.compacted_tokens == COUNTER.count(result.content) <= 300


def test_large_standard_input_is_streamed_like_a_file(tmp_path: Path) -> None:
    text = _log(fake_aws_access_key_id())
    (tmp_path / "big.log").write_text(text)
    service = _service()
    from_file = service.compress("big.log", 400, workdir=str(tmp_path), mode=CompressionMode.SMART)
    from_input = service.compress_input("big.log", text.encode(), 400, mode=CompressionMode.SMART)
    assert from_input.result == from_file.result
    binary = service.compress_input("-", b"\0\x01\x02", 400)
    assert binary.error == "standard input is a binary file, not text"
