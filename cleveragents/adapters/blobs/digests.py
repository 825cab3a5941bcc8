"""Blob names: a SHA-256 in lowercase hex, checked before it becomes a path or a key."""

from __future__ import annotations

_HEX = frozenset("0123456789abcdef")


def is_digest(text: str) -> bool:
    return len(text) == 64 and set(text) <= _HEX


def check_digest(sha256: str) -> str:
    if not is_digest(sha256):
        raise ValueError(f"not a SHA-256 hex digest: {sha256!r}")
    return sha256
