"""`agents tokens count` reads its file in pieces: the count is the whole text's, exactly."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

from cleveragents.adapters.tokens import tiktoken_counter
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.cli import tokens
from tests.e2e.cli_runner import run

WORDS = ("déjà", "vu", "naïve", "日本語", "🙂", "error:", "x=1;", "\t", "    ", "ÄÖÜ", "tokens")


def _generated_text(lines: int, seed: int) -> str:
    """Lines of mixed scripts: one- to four-byte characters, so pieces cut inside them."""
    rng = random.Random(seed)
    return "".join(
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 14))) + "\n" for _ in range(lines)
    )


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_the_streamed_count_is_the_whole_files_count(
    encoding: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Pieces of an odd size cut characters apart; a small window makes the counter cut the
    # text many times, as it does every megabyte of a large file.
    monkeypatch.setattr(tokens, "CHUNK_BYTES", 4099)
    monkeypatch.setattr(tiktoken_counter, "STREAM_WINDOW_CHARS", 8192)
    text = _generated_text(20_000, seed=7)
    path = tmp_path / "generated.txt"
    path.write_text(text, encoding="utf-8")
    result = run(capsys, "tokens", "count", str(path), "--encoding", encoding)
    assert result.exit_code == 0, result.stderr
    assert result.json() == {"input_tokens": TiktokenCounter(encoding).count(text)}
    assert result.stderr == ""


def test_standard_input_is_streamed_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tokens, "CHUNK_BYTES", 1000)
    text = _generated_text(2_000, seed=3)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    result = run(capsys, "tokens", "count", "-")
    assert result.json() == {"input_tokens": TiktokenCounter().count(text)}


@pytest.mark.parametrize(
    "data",
    [
        "é".encode() * 2000 + b"\xff" + b"tail",  # a bad byte deep in a later piece
        "é".encode() * 1000 + b"a" + b"\xc3\x28" + b"rest",  # a character begun, then broken
        b"abc" * 700 + "€".encode()[:2],  # the file ends inside a character
    ],
    ids=["bad-byte", "broken-sequence", "cut-at-the-end"],
)
def test_text_that_is_not_utf8_is_refused_with_its_offset(
    data: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tokens, "CHUNK_BYTES", 1001)  # the bad byte is never in the first piece
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    with pytest.raises(UnicodeDecodeError) as expected:
        data.decode("utf-8")
    result = run(capsys, "tokens", "count", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"error: Invalid value: {path} is not UTF-8 text "
        f"(bad byte at offset {expected.value.start})\n"
    )


def test_an_empty_file_has_no_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert run(capsys, "tokens", "count", str(path)).json() == {"input_tokens": 0}
