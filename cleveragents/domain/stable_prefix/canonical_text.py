"""One text per content: what makes equal prefix content render to equal bytes."""

from __future__ import annotations

import hashlib
import json
import unicodedata

from pydantic import JsonValue


def normalize_text(text: str) -> str:
    """NFC, LF line endings, no trailing whitespace on a line, no blank lines at either end."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def canonical_json(value: JsonValue) -> str:
    """Sorted keys, no spaces, UTF-8 kept as is: one text per value (NaN and infinity refused)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def single_line_name(value: str, what: str) -> str:
    """`value` in NFC, refused (`ValueError`) when blank, on several lines or padded."""
    value = unicodedata.normalize("NFC", value)
    if not value.strip():
        raise ValueError(f"a {what} cannot be empty")
    if value != value.strip() or "\n" in value or "\r" in value:
        raise ValueError(f"the {what} {value!r} must be one line without spaces at its ends")
    return value
