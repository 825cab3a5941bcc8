"""Smart mode for JSON: a whole document that fits once compact but leaves much of the budget
unused is written partly pretty, so the room left buys readability instead of going to waste.

Containers are opened (their members on lines of their own, indented by 2 as `json.dumps`
writes them) breadth-first from the root, in document order at each depth: the outline of the
document first, then the items of its arrays; the containers not opened are written compact on
the line of their key or item. A line costs about one token (its newline and indentation are
one, the space after a colon joins the token after it, deeper indentation may cost one more),
so the number of containers to open is estimated from the lines they add at the document's own
cost of a line, and the exact count decides.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable

from cleveragents.application.services.artifact_compression.kinds.json.facts import (
    encode_string,
    scalar_text,
)

_INDENT = "  "
_AIM = 0.93
"""The share of the budget the estimate aims at (below the search's: a miss costs a count)."""
_ENOUGH = 0.85
"""A rendering that uses this share of the budget is the answer."""
_TRIES = 2
"""Renderings counted at most: the estimate, then corrected by the cost of a line measured."""


def opening_order(root: object, most_lines: float) -> tuple[list[int], list[int]]:
    """The ids of the containers in the order they are opened (breadth-first, the root first),
    and the lines each adds (a member a line, and the closing bracket's), as far as
    `most_lines` lines in all."""
    ids: list[int] = []
    lines: list[int] = []
    total = 0
    queue: deque[dict[str, object] | list[object]] = deque()
    if isinstance(root, dict | list):
        queue.append(root)
    while queue and total < most_lines:
        container = queue.popleft()
        members = list(container.values()) if isinstance(container, dict) else container
        added = len(members) + 1
        ids.append(id(container))
        lines.append(added)
        total += added
        queue.extend(item for item in members if isinstance(item, dict | list) and item)
    return ids, lines


def render_opened(value: object, opened: set[int]) -> str:
    """`value` written with the containers in `opened` pretty and every other one compact."""
    parts: list[str] = []
    _write(value, opened, 0, parts.append)
    return "".join(parts)


def _write(value: object, opened: set[int], depth: int, out: Callable[[str], object]) -> None:
    if not isinstance(value, dict | list) or not value or id(value) not in opened:
        if isinstance(value, dict | list):
            out(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
        else:
            out(scalar_text(value))
        return
    inner = "\n" + _INDENT * (depth + 1)
    if isinstance(value, dict):
        out("{")
        for index, (key, item) in enumerate(value.items()):
            out((inner if index == 0 else "," + inner) + encode_string(key) + ": ")
            _write(item, opened, depth + 1, out)
        out("\n" + _INDENT * depth + "}")
        return
    out("[")
    for index, item in enumerate(value):
        out(inner if index == 0 else "," + inner)
        _write(item, opened, depth + 1, out)
    out("\n" + _INDENT * depth + "]")


def fill_with_layout(
    root: object,
    compact_tokens: int,
    budget: int,
    count: Callable[[str], int],
    per_line: float = 1.0,
) -> tuple[str, int] | None:
    """The document with as many containers opened as `budget` holds, and its count; None
    when not even the root can be opened (the compact rendering is the answer then).
    `per_line`: the tokens a line is first estimated to add."""
    if not isinstance(root, dict | list) or not root:
        return None
    room = budget * _AIM - compact_tokens
    if room < 1:
        return None
    per_line = max(per_line, 0.5)
    ids, lines = opening_order(root, 2 * room / per_line)
    best: tuple[str, int] | None = None
    fitted, over = 0, len(ids) + 1  # how many containers opened fit, and were over
    for _ in range(_TRIES):
        opened = _how_many(lines, room / per_line)
        opened = min(max(opened, fitted + 1), over - 1)
        if opened <= fitted:
            break
        text = render_opened(root, set(ids[:opened]))
        tokens = count(text)
        added = sum(lines[:opened])
        per_line = max((tokens - compact_tokens) / added, 0.05) if added else per_line
        if tokens <= budget:
            best, fitted = (text, tokens), opened
            if tokens >= _ENOUGH * budget or opened == len(ids):
                break
        else:
            over = opened
    return best


def _how_many(lines: list[int], most: float) -> int:
    """How many of the first containers add at most `most` lines."""
    total = 0
    for index, added in enumerate(lines):
        total += added
        if total > most:
            return index
    return len(lines)
