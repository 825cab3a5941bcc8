"""Media types from content first (magic numbers, JSON, NUL bytes), then the file name."""

from __future__ import annotations

import mimetypes

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"%PDF-", "application/pdf"),
    (b"\x1f\x8b", "application/gzip"),
    (b"PK\x03\x04", "application/zip"),
    (b"\x7fELF", "application/x-executable"),
    (b"SQLite format 3\x00", "application/vnd.sqlite3"),
)
_TEXT_BY_SUFFIX = {
    ".log": "text/plain",
    ".md": "text/markdown",
    ".diff": "text/x-diff",
    ".patch": "text/x-diff",
    ".jsonl": "application/jsonl",
    ".ndjson": "application/jsonl",
}


def sniff_media_type(name: str, head: bytes) -> str:
    """`head` is the first few KiB of the content."""
    for magic, media_type in _MAGIC:
        if head.startswith(magic):
            return media_type
    if b"\0" in head:
        return "application/octet-stream"
    stripped = head.lstrip()
    lowered = name.lower()
    for suffix, media_type in _TEXT_BY_SUFFIX.items():
        if lowered.endswith(suffix):
            return media_type
    if stripped[:1] in (b"{", b"[") and not lowered.endswith((".txt", ".log")):
        return "application/json"
    guessed, _ = mimetypes.guess_type(name, strict=False)
    if guessed:
        return guessed
    return "text/plain"
