"""Transcripts a caller already holds parsed: checked to be JSON, copied, and recognised.

A Python caller hands over dicts and lists. They must be what a JSON document could be, since
the formats are JSON and the result is written back as such: string keys, finite numbers,
integers JSON can print, no sets, bytes or other objects. Tuples are read as lists. The copy
made while checking is what the readers get, so the caller's objects are never changed, nor
shared with the transcript.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from cleveragents.domain.errors import InvalidInputError

_SMALL_INT_BITS = 64
"""An int this small always prints; a larger one is checked against Python's digit limit."""


def json_copy(value: object, where: str) -> Any:
    """A copy of `value` made of dicts, lists and JSON scalars; `InvalidInputError` naming the
    first place (``transcript[3].content``) holding anything else."""
    try:
        return _copy(value, where)
    except RecursionError as exc:
        raise InvalidInputError(f"{where} is nested too deeply to read") from exc


def _copy(value: object, where: str) -> Any:
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        if value.bit_length() > _SMALL_INT_BITS:
            try:
                str(value)
            except ValueError:
                raise InvalidInputError(f"{where}: an integer with too many digits") from None
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInputError(f"{where}: {value} is not a JSON number")
        return value
    if isinstance(value, Mapping):
        copied: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidInputError(f"{where}: the key {key!r} is not a string")
            copied[key] = _copy(item, f"{where}.{key}")
        return copied
    if isinstance(value, (list, tuple)):
        return [_copy(item, f"{where}[{index}]") for index, item in enumerate(value)]
    raise InvalidInputError(f"{where}: {type(value).__name__} is not a JSON value")


def looks_like_claude_code_records(document: object) -> bool:
    """A list of Claude Code session records: the first a dict with a string ``type`` and no
    ``role`` (a message has one, a record does not), and some record of a session (with a
    message, a sessionId or a uuid)."""
    if not isinstance(document, list) or not document:
        return False
    first = document[0]
    if not isinstance(first, dict) or not isinstance(first.get("type"), str) or "role" in first:
        return False
    return any(
        isinstance(record, dict) and {"message", "sessionId", "uuid"} & record.keys()
        for record in document
    )


def claude_code_lines(records: list[Any]) -> str:
    """The JSONL text of `records`, which the Claude Code reader reads line by line (its
    errors then name a line: record N is line N)."""
    return "".join(
        json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n" for record in records
    )
