"""ULID identifiers: 26 Crockford base32 characters, sortable by creation time."""

from __future__ import annotations

import re

from ulid import ULID

from cleveragents.domain.errors import InvalidIdError

# Crockford base32 without I, L, O, U; the first character is at most 7 (128-bit limit).
_ULID_PATTERN = re.compile(r"[0-7][0-9A-HJKMNP-TV-Z]{25}")


def new_ulid() -> str:
    """A new ULID in its canonical upper-case text form."""
    return str(ULID())


def parse_ulid(value: str, what: str = "id") -> str:
    """Return the canonical (upper-case) form of `value`, or raise `InvalidIdError`."""
    candidate = value.strip().upper()
    if not _ULID_PATTERN.fullmatch(candidate):
        raise InvalidIdError(
            f"malformed {what} {value!r}: expected a 26-character ULID "
            "such as 01HX3Z8Q9V6W2Y4K5M7N8P0R1S"
        )
    return candidate
