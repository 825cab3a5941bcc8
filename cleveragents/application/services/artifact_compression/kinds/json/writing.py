"""Smart mode for JSON: how what was left out is said (a cut string's tail, the marker of omitted
items or keys), and the JSON text of a value in either layout."""

from __future__ import annotations

import json

from cleveragents.application.services.artifact_compression.kinds.json.facts import encode_string
from cleveragents.application.services.artifact_compression.kinds.json.pretty_text import (
    pretty_json,
)

ELLIPSIS = "…"
_SURELY_SHORTER = 64  # cutting this many characters saves more than the marker costs
BARE_KEPT = 8
"""At string limit 0, strings up to this long are kept (a word costs what ``…`` does)."""


def cut_string(value: str, limit: int) -> str:
    """`value` cut to `limit` characters with ``… (N chars omitted)``; whole when the cut
    would save less than twice its marker (about as many tokens as the marker costs: the
    text would be lost for nothing). At limit 0, the last level before keys are lost, a
    string longer than a word is a bare ``…``."""
    if len(value) <= limit:
        return value
    if not limit:
        return value if len(value) <= BARE_KEPT else ELLIPSIS
    omitted = len(value) - limit
    marker = f"{ELLIPSIS} ({omitted} chars omitted)"
    if omitted < 2 * len(marker):
        return value
    cut = value[:limit] + marker
    if omitted >= _SURELY_SHORTER:
        return cut
    return cut if len(encode_string(cut)) < len(encode_string(value)) else value


def kept_whole_up_to(limit: int) -> int:
    """The length up to which `cut_string(value, limit)` surely returns `value` itself."""
    return limit if limit else BARE_KEPT


def items_marker(count: int, where: str) -> str:
    noun = "item" if count == 1 else "items"
    return (
        f"{ELLIPSIS} {count} {noun} omitted ({where})"
        if where
        else f"{ELLIPSIS} {count} {noun} omitted"
    )


def keys_marker(count: int, where: str) -> str:
    noun = "key" if count == 1 else "keys"
    return f"{count} {noun} omitted ({where})" if where else f"{count} {noun} omitted"


def render(value: object, *, pretty: bool) -> str:
    if pretty:
        return pretty_json(value)  # json.dumps(value, ensure_ascii=False, indent=2), faster
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
