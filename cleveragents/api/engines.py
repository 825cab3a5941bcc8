"""The containers the API functions use when they are given no store.

One per tokenizer encoding, built on first use and kept: the tokenizer, the secret scanner's
rules and the grammars are loaded once per process, not once per call. Such a container is
never asked for its database (its compaction is the storeless one), so nothing is opened.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from cleveragents.container import build_container
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.container import Container

_containers: dict[str, Container] = {}
_lock = threading.Lock()


def storeless_container(encoding: str = DEFAULT_ENCODING) -> Container:
    """The shared container for `encoding` (an unknown one fails when first counted)."""
    with _lock:
        if encoding not in _containers:
            _containers[encoding] = build_container(encoding=encoding, auto_migrate=False)
        return _containers[encoding]
