"""Credentials never reach compressed content, and redaction keeps the artifact's shape: JSON
still parses, line numbers hold, and a mention of a key header costs only that header."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_compression.redaction import (
    redact_artifact,
    without_key_bodies,
)
from cleveragents.domain.artifact import CompressionMode
from tests.secret_samples import fake_aws_access_key_id

SCANNER = PatternSecretScanner()
KEY = fake_aws_access_key_id()


def _service(large_bytes: int | None = None) -> ArtifactCompressorService:
    return ArtifactCompressorService(
        FdContainedFiles(),
        TiktokenCounter("cl100k_base"),
        TreeSitterSkeletonizer(),
        SCANNER,
        large_artifact_bytes=large_bytes,
    )


def _private_key() -> list[str]:
    body = base64.b64encode(random.Random(3).randbytes(300)).decode()
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    return ["-----BEGIN RSA PRIVATE KEY-----", *rows, "-----END RSA PRIVATE KEY-----"]


def test_a_key_in_json_is_masked_inside_its_string_and_the_document_still_parses() -> None:
    document = {"items": [{"id": i, "desc": "lorem ipsum " * 5} for i in range(200)], "aws": KEY}
    text = json.dumps(document, indent=2)
    assert json.loads(redact_artifact(text, SCANNER))["aws"] == "[REDACTED:aws-access-key-id]"
    for budget in (300, 2_000, 10**6):
        for mode in CompressionMode:
            result = _service().compress_text("a.json", text, budget, mode=mode)
            assert KEY not in result.content
            if mode is CompressionMode.SMART:
                json.loads(result.content)


def test_a_key_written_with_json_escapes_is_redacted_once_decoded() -> None:
    escaped = KEY[:4] + f"\\u{ord(KEY[4]):04x}" + KEY[5:]
    items = ",\n".join(f'  {{"id": {i}, "note": "step {i} done"}}' for i in range(200))
    text = '{"items": [\n' + items + '\n], "aws_key": "' + escaped + '"}'
    assert json.loads(text)["aws_key"] == KEY
    for budget in (200, 600, 2_000, 10**6):
        for mode in CompressionMode:
            result = _service().compress_text("cfg.json", text, budget, mode=mode)
            assert KEY not in result.content, (budget, mode)
            assert result.compacted_tokens <= budget


def test_a_private_key_goes_whole_and_the_lines_after_it_keep_their_numbers() -> None:
    lines = ["start", *_private_key(), "after the key"]
    redacted = redact_artifact("\n".join(lines), SCANNER).split("\n")
    assert len(redacted) == len(lines)
    assert redacted[1] == "[REDACTED:private-key]"
    assert all(line == "" for line in redacted[2:-1])
    assert redacted[-1] == "after the key"


def test_a_mention_of_a_key_header_costs_only_that_header() -> None:
    source = 'def is_key(line):\n    return line.startswith("-----BEGIN RSA PRIVATE KEY-----")\n'
    source += "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(20))
    redacted = redact_artifact(source, SCANNER)
    assert "def f19(x):" in redacted
    assert redacted.count("\n") == source.count("\n")


def test_a_key_on_one_line_is_replaced_within_it() -> None:
    one_line = "\\n".join(_private_key())
    text = json.dumps({"tls": {"key": one_line, "port": 443}}, indent=2)
    redacted = redact_artifact(text, SCANNER)
    assert json.loads(redacted)["tls"]["port"] == 443
    assert _private_key()[1] not in redacted


def test_streamed_lines_lose_a_key_body() -> None:
    lines = [f"{line}\n" for line in ["a", *_private_key(), "b"]]
    blanked = list(without_key_bodies(lines))
    assert blanked[0] == "a\n"
    assert blanked[1] == lines[1]  # the BEGIN line is the scanner's to redact
    assert all(line == "\n" for line in blanked[2:-1])
    assert blanked[-1] == "b\n"


@pytest.mark.parametrize("budget", [300, 1_000, 3_000])
def test_a_streamed_log_never_shows_a_key_body(tmp_path: Path, budget: int) -> None:
    lines = [f"2024-05-01 10:00:{i % 60:02d} INFO step {i} ok" for i in range(3000)]
    lines[1500:1500] = ["2024-05-01 10:25:00 ERROR tls key dumped:", *_private_key()]
    (tmp_path / "big.log").write_text("\n".join(lines) + "\n")
    result = _service(10_000).compress(
        "big.log", budget, workdir=str(tmp_path), mode=CompressionMode.SMART, task="tls key"
    )
    for row in _private_key()[1:]:
        assert row not in result.result.content


def test_a_key_cut_by_a_streamed_head_is_still_redacted(tmp_path: Path) -> None:
    text = "hello " * 330 + f"{KEY} and more\n" + "tail line\n" * 3000
    (tmp_path / "big.txt").write_text(text)
    for mode in CompressionMode:
        result = _service(10_000).compress("big.txt", 500, workdir=str(tmp_path), mode=mode)
        assert KEY[:10] not in result.result.content
