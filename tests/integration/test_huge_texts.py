"""Texts the tokenizer cannot take whole: counted in bounded memory, or a `TokenCountingError`
(never a Rust panic, a MemoryError or a regex error escaping to the caller)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
import tiktoken

from cleveragents.adapters.tokens import tiktoken_counter, token_offsets
from cleveragents.adapters.tokens.tiktoken_counter import (
    TiktokenCounter,
    exact_pieces,
    is_rust_panic,
    load_encoding,
)
from cleveragents.application.services.counting.heuristic_counter import (
    HEURISTIC_WARNING,
)
from cleveragents.container import Container
from cleveragents.domain.errors import TokenCountingError


def _panicking_encoding() -> tiktoken.Encoding:
    """An encoding missing most single bytes: tiktoken's Rust code panics (indexing its rank
    table) on any text with another byte, which pyo3 raises as its PanicException."""
    return tiktoken.Encoding(
        name="two_bytes", pat_str=r"\S+|\s+", mergeable_ranks={b"a": 0, b"b": 1}, special_tokens={}
    )


def test_a_real_rust_panic_is_recognised() -> None:
    with pytest.raises(BaseException) as raised:  # noqa: PT011 - the panic type is only known at run time
        _panicking_encoding().encode("abc")
    assert not isinstance(raised.value, Exception)  # a BaseException: `except Exception` misses it
    assert is_rust_panic(raised.value)
    assert not is_rust_panic(KeyError("c"))


@pytest.mark.parametrize("method", ["count", "token_starts", "prefix_within", "count_stream"])
def test_a_panic_in_the_tokenizer_is_a_token_counting_error(
    monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    monkeypatch.setattr(tiktoken_counter, "load_encoding", lambda *_: _panicking_encoding())
    counter = TiktokenCounter()
    calls: dict[str, Callable[[], object]] = {
        "count": lambda: counter.count("abc"),
        "token_starts": lambda: counter.token_starts("abc"),
        "prefix_within": lambda: counter.prefix_within("abc", 1),
        "count_stream": lambda: counter.count_stream(["ab", "c"]),
    }
    with pytest.raises(TokenCountingError, match="PanicException"):
        calls[method]()


class _Failing:
    def __init__(self, error: BaseException) -> None:
        self.error = error

    def encode(self, text: str, **_: object) -> list[int]:
        raise self.error


def test_running_out_of_memory_is_a_token_counting_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tiktoken_counter, "load_encoding", lambda *_: _Failing(MemoryError()))
    with pytest.raises(TokenCountingError, match="MemoryError"):
        TiktokenCounter().count("a huge text")


@pytest.mark.parametrize("error", [KeyboardInterrupt(), SystemExit(3), RuntimeError("bug")])
def test_other_failures_are_not_disguised(
    monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    monkeypatch.setattr(tiktoken_counter, "load_encoding", lambda *_: _Failing(error))
    with pytest.raises(type(error)):
        TiktokenCounter().count("text")


@pytest.mark.parametrize(
    ("encoding", "text"),
    [("cl100k_base", " " * 1_000_000 + "a"), ("o200k_base", " " * 1_000_000)],
)
def test_a_long_run_of_spaces_is_a_token_counting_error(encoding: str, text: str) -> None:
    """tiktoken's regex gives up on these (its backtracking stack overflows) with a ValueError."""
    with pytest.raises(TokenCountingError, match="Regex error"):
        TiktokenCounter(encoding).count(text)


def test_the_artifact_compressor_falls_back_to_the_heuristic(
    container: Container, tmp_path: Path
) -> None:
    (tmp_path / "spaces.txt").write_text("log start\n" + " " * 1_000_000 + "a\nlog end\n")
    outcome = container.artifact_compressor_service().compress(
        "spaces.txt", 1_000, workdir=str(tmp_path)
    )
    assert outcome.result.content.startswith(HEURISTIC_WARNING)


def _long_text(characters: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    words = ["alpha", "Beta", "42", "→", "😀", " ", "  ", "\n", "\n\n", "\t", "x\n", "{", "}"]
    return "".join(rng.choices(words, k=characters // 3))


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_a_long_text_is_counted_exactly_in_pieces(
    monkeypatch: pytest.MonkeyPatch, encoding: str
) -> None:
    monkeypatch.setattr(tiktoken_counter, "STREAM_WINDOW_CHARS", 1_000)
    text = _long_text(300_000)
    pieces = list(exact_pieces(text))
    assert len(pieces) > 50
    assert "".join(pieces) == text
    whole = len(load_encoding(encoding).encode(text, disallowed_special=()))
    assert TiktokenCounter(encoding).count(text) == whole


def test_a_text_without_a_safe_cut_is_counted_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tiktoken_counter, "STREAM_WINDOW_CHARS", 100)
    # Every newline follows punctuation and comes before a slash, which o200k_base's
    # punctuation pre-token takes along with the newline.
    text = '/{"a": 1}\n' * 1_000
    assert list(exact_pieces(text)) == [text]
    whole = len(load_encoding("cl100k_base").encode(text))
    assert TiktokenCounter().count(text) == whole


def test_running_out_of_memory_for_the_token_starts_is_a_token_counting_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The starts are an array as long as the tokens: failing to make it is the same error
    as the tokenizer failing."""
    import numpy as np

    def no_memory(*_: object, **__: object) -> object:
        raise MemoryError

    monkeypatch.setattr(token_offsets, "ARRAY_FROM_TOKENS", 1)  # the array, however short
    monkeypatch.setattr(np, "empty", no_memory)
    with pytest.raises(TokenCountingError, match="MemoryError"):
        TiktokenCounter().token_starts("a huge text")
