"""The tiktoken adapter of the `TokenCounter` port, loading vocabularies offline."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from itertools import accumulate
from pathlib import Path

import tiktoken
from tiktoken.load import load_tiktoken_bpe

from cleveragents.adapters.tokens.offline_encodings import (
    DEFAULT_ENCODING,
    OFFLINE_ENCODINGS,
    verify_sha256,
)
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.domain.errors import TokenCountingError, UnknownEncodingError

_cache: dict[str, tiktoken.Encoding] = {}
_cache_lock = threading.Lock()


def load_encoding(name: str, cache_dir: Path | None = None) -> tiktoken.Encoding:
    """The named encoding, built from an installed vocabulary that tiktoken hash-checks.

    Loaded once per process (building the 100k-200k entry rank table takes a few hundred ms).
    """
    spec = OFFLINE_ENCODINGS.get(name)
    if spec is None:
        known = ", ".join(sorted(OFFLINE_ENCODINGS))
        raise UnknownEncodingError(f"unknown encoding {name!r}; available offline: {known}")
    with _cache_lock:
        if name not in _cache:
            try:
                path = spec.vocabulary_path(cache_dir)
                # tiktoken checks the hash too, except when TIKTOKEN_CACHE_DIR="" turns its
                # cache off (it then reads the file unchecked): check it ourselves as well.
                verify_sha256(path, spec.sha256)
                ranks = load_tiktoken_bpe(str(path), expected_hash=spec.sha256)
            except (OSError, ValueError, ModuleNotFoundError) as exc:
                raise TokenCountingError(
                    f"cannot load the {name} vocabulary from the {spec.package!r} package: {exc}"
                ) from exc
            _cache[name] = tiktoken.Encoding(
                name=name,
                pat_str=spec.pattern,
                mergeable_ranks=ranks,
                special_tokens=spec.special_tokens,
            )
        return _cache[name]


_lengths: dict[str, list[int]] = {}


def token_byte_lengths(encoding: tiktoken.Encoding) -> list[int]:
    """The UTF-8 length of every token id, computed once per encoding: turning a token list
    into offsets is then one C-level map, not a Python call per token."""
    with _cache_lock:
        if encoding.name not in _lengths:
            table = [0] * encoding.n_vocab
            for token in range(encoding.n_vocab):
                try:
                    table[token] = len(encoding.decode_single_token_bytes(token))
                except KeyError:
                    continue  # ids between the ranks and the special tokens
            _lengths[encoding.name] = table
        return _lengths[encoding.name]


class TiktokenCounter(TokenCounter):
    """Exact counts with a tiktoken encoding (default ``cl100k_base``)."""

    def __init__(self, encoding_name: str = DEFAULT_ENCODING, cache_dir: Path | None = None):
        self._encoding_name = encoding_name
        self._cache_dir = cache_dir

    @property
    def encoding_name(self) -> str:
        return self._encoding_name

    def count(self, text: str) -> int:
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        # Text that looks like a special token ("<|endoftext|>") is counted as the plain text it
        # is: content is data, never a control sequence.
        return len(encoding.encode(text, disallowed_special=()))

    def count_stream(self, chunks: Iterable[str]) -> int:
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        total = 0
        pending = ""
        searched = 0  # split points before this offset of `pending` were already looked for
        for chunk in chunks:
            pending += chunk
            if len(pending) < STREAM_WINDOW_CHARS:
                continue
            cut = safe_split_point(pending, searched)
            if cut is None:
                if len(pending) < STREAM_WINDOW_LIMIT_CHARS:
                    searched = max(len(pending) - 1, 0)
                    continue
                cut = len(pending)  # one enormous line: split anyway (off by at most a token)
            total += len(encoding.encode(pending[:cut], disallowed_special=()))
            pending = pending[cut:]
            searched = 0
        if pending:
            total += len(encoding.encode(pending, disallowed_special=()))
        return total

    def token_starts(self, text: str) -> list[int]:
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        tokens = encoding.encode(text, disallowed_special=())
        lengths = map(token_byte_lengths(encoding).__getitem__, tokens)
        return [0, *accumulate(lengths)][: len(tokens)]

    def prefix_within(self, text: str, max_tokens: int) -> str:
        if max_tokens <= 0 or not text:
            return ""
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        tokens = encoding.encode(text, disallowed_special=())
        keep = min(max_tokens, len(tokens))
        while keep > 0:
            # A token prefix can end inside a multi-byte character: drop the partial bytes.
            prefix = encoding.decode_bytes(tokens[:keep]).decode("utf-8", errors="ignore")
            # Re-encoding a prefix can merge differently; step back until it really fits.
            if len(encoding.encode(prefix, disallowed_special=())) <= max_tokens:
                return prefix
            keep -= 1
        return ""


STREAM_WINDOW_CHARS = 1 << 20
STREAM_WINDOW_LIMIT_CHARS = 1 << 26


def safe_split_point(text: str, start: int = 0) -> int | None:
    """The last offset at or after `start` where `text` can be cut without changing its count.

    No pre-token of cl100k_base or o200k_base spans a newline that follows a letter or digit, or
    a newline that precedes one: the letter and digit patterns take no newline, and the
    whitespace patterns start no earlier than the newline when a letter or digit is before it.
    So counting the two sides of such a cut separately gives the exact total.
    """
    position = len(text) - 1  # a newline at the very end has no known successor yet
    while (newline := text.rfind("\n", start, position)) > 0:
        if text[newline + 1].isalnum():
            return newline + 1
        if text[newline - 1].isalnum():
            return newline
        position = newline
    return None
