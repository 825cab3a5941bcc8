"""Limits of the text the store keeps, checked before anything is stored, so that SQLite and
PostgreSQL refuse the same input the same way.

Left to the databases, they differ: SQLite enforces no declared length (its VARCHAR(200) keeps
ten thousand characters) and keeps NUL characters, while PostgreSQL refuses both (``value too
long for type character varying(200)``; text "cannot contain NUL (0x00) bytes"). So every string
column with a length takes it from here (the rows import these constants), and the domain
models and services check it, and NUL, with one line that names the field and the limit.

NUL is refused, never escaped, in every text field: names, titles, ids, labels, and content
too. A NUL in a decision's text is almost always binary data given by mistake; escaping it
would change the text (and its token count) behind the user's back, and the store has a place
for bytes: artifacts, whose blobs keep any byte. Lengths count characters (code points), as
PostgreSQL's VARCHAR does.
"""

from __future__ import annotations

from cleveragents.domain.errors import InvalidInputError

NUL = "\0"

PROJECT_NAME_LENGTH = 100
PLAN_TITLE_LENGTH = 500
FRAGMENT_ID_LENGTH = 200
REQUEST_KEY_LENGTH = 200
MODEL_NAME_LENGTH = 200
PROVIDER_ID_LENGTH = 200
"""A provider's message or request id, as a usage record keeps it."""
SERVICE_TIER_LENGTH = 50
PROVIDER_LENGTH = 50
USAGE_FORMAT_LENGTH = 50
MEDIA_TYPE_LENGTH = 200
ARTIFACT_SOURCE_LENGTH = 200
"""``workspace``, ``temp-output:<tool>`` or ``tool-output:<label>``."""
CREATED_BY_LENGTH = 200
TOOL_NAME_LENGTH = 200
EVENT_KIND_LENGTH = 100
STATUS_LENGTH = 20


def refuse_nul(value: str, field: str) -> str:
    """`value`, unless it holds a NUL character: then an `InvalidInputError` saying where."""
    position = value.find(NUL)
    if position >= 0:
        raise InvalidInputError(
            f"{field} contains a NUL character (at character {position:,}); text cannot hold "
            "NUL: remove it, or import binary data as an artifact"
        )
    return value


def check_stored_text(value: str, field: str, max_length: int | None = None) -> str:
    """`value`, unless it is longer than `max_length` characters or holds a NUL character:
    then an `InvalidInputError` that names `field` and the limit."""
    if max_length is not None and len(value) > max_length:
        raise InvalidInputError(
            f"{field} is {len(value):,} characters long; at most {max_length:,} are allowed"
        )
    return refuse_nul(value, field)


def check_optional_text(value: str | None, field: str, max_length: int | None = None) -> str | None:
    """`check_stored_text` for a value that may be absent."""
    return None if value is None else check_stored_text(value, field, max_length)
