"""Artifact previews found in content in flight: the text rendering (`agents artifact import`,
`agents artifact preview`) and the JSON one (``--json``, the MCP tools), wherever they occur.

The text rendering is a header line, the head, an omission marker, the tail and maybe a note
of withheld lines::

    artifact 01J...: logs/run.log (text/plain, 287848 bytes, sha256 7c96...)
    <head>
    [... 279656 bytes omitted: agents artifact read 01J... --offset 4096 --length 279656 ...]
    <tail>
    [1 line(s) withheld as possible credentials]

What is checkable from the text alone: the path the header names, and whether a marker is
followed by a tail at all (something other than the note, before the next preview or the end),
and, with the header's byte count, whether the marker's range leaves any tail to show. Whether
the tail shown is the output's real end needs the store (`agents verify` checks that).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_HEADER = re.compile(
    r"^artifact (?P<id>[0-9A-Za-z:]+): (?P<path>.*) \((?P<media>[^,()]*), "
    r"(?P<bytes>\d+) bytes, sha256 [0-9a-f]{64}\)$",
    re.MULTILINE,
)
_MARKER = re.compile(
    r"\[\.\.\. (?P<omitted>\d+) bytes omitted: agents artifact read (?P<id>\S+) "
    r"--offset (?P<offset>\d+) --length (?P<length>\d+) \.\.\.\]"
)
_WITHHELD_NOTE = re.compile(r"^\[\d+ line\(s\) withheld as possible credentials\]$", re.MULTILINE)
_PREVIEW_KEYS = frozenset({"artifact_id", "head", "tail", "omitted_bytes", "byte_count"})
_LARGEST_JSON = 64 * 1024 * 1024  # text larger than this is not parsed in search of previews


@dataclass(frozen=True, slots=True)
class ShownPreview:
    """One preview as content shows it. `path` is None when only a marker was found."""

    artifact_id: str
    path: str | None
    byte_count: int | None
    omitted_offset: int | None
    omitted_bytes: int
    tail_follows: bool
    """Something of the output follows the omission (always True without an omission)."""


def shown_previews(text: str) -> list[ShownPreview]:
    """The previews in `text`: rendered as text, or as JSON when `text` is a JSON document."""
    return [*_text_previews(text), *_json_previews(text)]


def _text_previews(text: str) -> Iterator[ShownPreview]:
    headers = list(_HEADER.finditer(text))
    starts = [header.start() for header in headers]
    ends = [*starts[1:], len(text)] if headers else []
    for header, end in zip(headers, ends, strict=True):
        body = text[header.end() : end]
        marker = _MARKER.search(body)
        yield ShownPreview(
            artifact_id=header["id"],
            path=header["path"],
            byte_count=int(header["bytes"]),
            omitted_offset=int(marker["offset"]) if marker else None,
            omitted_bytes=int(marker["omitted"]) if marker else 0,
            tail_follows=marker is None or _something_after(body[marker.end() :]),
        )
    # A marker outside any preview (pasted on its own, or its header cut away).
    covered = list(zip(starts, ends, strict=True))
    for marker in _MARKER.finditer(text):
        if any(start <= marker.start() < end for start, end in covered):
            continue
        following = text[marker.end() :]
        next_header = _HEADER.search(following)
        if next_header is not None:
            following = following[: next_header.start()]
        yield ShownPreview(
            artifact_id=marker["id"],
            path=None,
            byte_count=None,
            omitted_offset=int(marker["offset"]),
            omitted_bytes=int(marker["omitted"]),
            tail_follows=_something_after(following),
        )


def _something_after(rest: str) -> bool:
    return bool(_WITHHELD_NOTE.sub("", rest).strip())


def _json_previews(text: str) -> Iterator[ShownPreview]:
    stripped = text.strip()
    if not stripped.startswith(("{", "[")) or len(stripped) > _LARGEST_JSON:
        return
    try:
        document = json.loads(stripped)
    except ValueError:
        return
    yield from _previews_in(document)


def _previews_in(value: Any) -> Iterator[ShownPreview]:
    if isinstance(value, list):
        for item in value:
            yield from _previews_in(item)
        return
    if not isinstance(value, dict):
        return
    if value.keys() >= _PREVIEW_KEYS:
        preview = _json_preview(value)
        if preview is not None:
            yield preview
    for item in value.values():
        yield from _previews_in(item)


def _json_preview(value: dict[str, Any]) -> ShownPreview | None:
    omitted, total = value.get("omitted_bytes"), value.get("byte_count")
    if not isinstance(omitted, int) or not isinstance(total, int):
        return None
    offset = value.get("omitted_offset")
    path = value.get("workspace_path")
    tail = value.get("tail")
    return ShownPreview(
        artifact_id=str(value.get("artifact_id")),
        path=path if isinstance(path, str) else None,
        byte_count=total,
        omitted_offset=offset if isinstance(offset, int) else None,
        omitted_bytes=omitted,
        tail_follows=omitted == 0 or (isinstance(tail, str) and bool(tail)),
    )
