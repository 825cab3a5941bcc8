"""`count_tokens`: the real tokenizer's count, without the rest of the engine."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.application.ports.token_counter import TokenCounter

_counters: dict[str, TokenCounter] = {}
_lock = threading.Lock()


def count_tokens(text: str, *, encoding: str = DEFAULT_ENCODING) -> int:
    """The number of tokens of `text` in `encoding` (``cl100k_base`` or ``o200k_base``, both
    loaded offline and hash-checked).

    Raises `UnknownEncodingError` (an `InvalidInputError`) for another encoding and
    `TokenCountingError` when the vocabulary cannot be loaded. Loads only the tokenizer (no
    database, no dependency injection), once per process and encoding.

    >>> count_tokens("hello world")
    2
    """
    return _counter(encoding).count(text)


def _counter(encoding: str) -> TokenCounter:
    from cleveragents.container import build_token_counter

    with _lock:
        if encoding not in _counters:
            _counters[encoding] = build_token_counter(encoding)
        return _counters[encoding]
