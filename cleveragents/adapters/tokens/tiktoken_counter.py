"""The tiktoken adapter of the `TokenCounter` port, loading vocabularies offline."""

from __future__ import annotations

import threading
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
