"""What the tiktoken adapter encodes: the tests that check a count reuses what it can (token
starts, remembered words or records) watch the texts it still encodes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
import tiktoken

from cleveragents.adapters.tokens import tiktoken_counter


def watch_encodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text the adapter encodes from now on, in order, until `monkeypatch`
    is undone."""
    encoded: list[int] = []
    token_ids = tiktoken_counter._token_ids

    def watched(encoding: tiktoken.Encoding, text: str) -> Sequence[int]:
        encoded.append(len(text))
        return token_ids(encoding, text)

    monkeypatch.setattr(tiktoken_counter, "_token_ids", watched)
    return encoded
