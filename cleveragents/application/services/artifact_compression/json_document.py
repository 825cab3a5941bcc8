"""JSON artifacts: the seed's Tier 2 (all keys and structure, long arrays and strings cut) and
smaller skeletons for smart mode.

Decisions the seed leaves open, documented here because they are visible in the output:

- Parsing is Python's `json.loads`: `NaN`/`Infinity` literals are accepted and written back as
  they were; for duplicate keys the last value wins (so the output has one key where the input
  had two); numbers are re-serialised by Python (`1.0e5` becomes `100000.0`).
- Nesting deeper than Python's recursion limit is treated as malformed (the seed's Tier 3 then
  takes over) instead of crashing.
- `--task` guidance: an omitted array item is kept after all when one of its keys or scalar
  values mentions a task term. The match is computed bottom-up in the same pass that transforms
  the item, so the whole transformation stays linear in the size of the document.
- Omitted items are announced by one marker `{"_truncated": "N items omitted"}` per array, at the
  place of the first omitted item; N counts only the items really omitted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    MalformedCompressionError,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

_MARKER_KEY = "_truncated"
_MAX_SHRINK_LEVEL = 5
# A line of pretty-printed JSON that starts with an object key.
_KEY_LINE = re.compile(r'\s*"(?:[^"\\]|\\.)*"\s*:')


@dataclass(frozen=True, slots=True)
class _Limits:
    """How much one pass keeps. `max_depth` None: objects are never replaced by a marker."""

    threshold: int  # arrays longer than this are cut
    head: int
    tail: int
    string_limit: int
    max_depth: int | None = None


_TIER2 = _Limits(threshold=10, head=5, tail=2, string_limit=200)
# Each level is at least as strict as the previous one in every dimension.
_SHRINK_LEVELS: dict[int, _Limits] = {
    1: _Limits(threshold=4, head=3, tail=1, string_limit=80),
    2: _Limits(threshold=2, head=1, tail=1, string_limit=40),
    3: _Limits(threshold=1, head=1, tail=0, string_limit=20),
    4: _Limits(threshold=0, head=0, tail=0, string_limit=10),
    5: _Limits(threshold=0, head=0, tail=0, string_limit=10, max_depth=3),
}


def _cut_string(value: str, limit: int) -> str:
    if len(value) <= limit:
        return value
    return f"{value[:limit]}... ({len(value) - limit} chars omitted)"


class _Transformer:
    """One recursive pass over a parsed document. Each node is visited once, so the pass is
    linear; `transform` returns the new value and whether the original mentions a task term."""

    def __init__(self, limits: _Limits, terms: TaskTerms) -> None:
        self._limits = limits
        self._terms = terms

    def transform(self, value: object, depth: int = 1) -> tuple[object, bool]:
        if isinstance(value, dict):
            return self._object(value, depth)
        if isinstance(value, list):
            return self._array(value, depth)
        if isinstance(value, str):
            return _cut_string(value, self._limits.string_limit), self._terms.matches(value)
        # Numbers, booleans and null: match on the JSON spelling (`true`, `42`).
        return value, bool(self._terms) and self._terms.matches(json.dumps(value))

    def _object(self, value: dict[str, object], depth: int) -> tuple[object, bool]:
        limit = self._limits.max_depth
        if limit is not None and depth > limit and value:
            matched = bool(self._terms) and self._terms.matches(json.dumps(value))
            return {_MARKER_KEY: f"{len(value)} keys omitted"}, matched
        result: dict[str, object] = {}
        matched = False
        for key, item in value.items():
            result[key], item_matched = self.transform(item, depth + 1)
            matched = matched or item_matched or self._terms.matches(key)
        return result, matched

    def _array(self, items: list[object], depth: int) -> tuple[object, bool]:
        limits = self._limits
        if len(items) <= limits.threshold:
            pairs = [self.transform(item, depth + 1) for item in items]
            return [new for new, _ in pairs], any(hit for _, hit in pairs)
        tail_start = len(items) - limits.tail
        result: list[object] = []
        matched = False
        omitted = 0
        marker_at: int | None = None
        for index, item in enumerate(items):
            in_middle = limits.head <= index < tail_start
            if in_middle and not self._terms:
                omitted += 1  # without terms a middle item is never kept: skip its subtree
                marker_at = len(result) if marker_at is None else marker_at
                continue
            new, hit = self.transform(item, depth + 1)
            matched = matched or hit
            if in_middle and not hit:
                omitted += 1
                marker_at = len(result) if marker_at is None else marker_at
                continue
            result.append(new)
        if marker_at is not None:
            result.insert(marker_at, {_MARKER_KEY: f"{omitted} items omitted"})
        return result, matched


def _parse(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MalformedCompressionError(f"not valid JSON: {exc}") from exc


def _render(value: object, limits: _Limits, terms: TaskTerms, *, pretty: bool) -> str:
    """Transform and serialise, then prove the result parses (the seed's validation)."""
    try:
        new, _ = _Transformer(limits, terms).transform(value)
        if pretty:
            out = json.dumps(new, ensure_ascii=False, indent=2)
        else:
            out = json.dumps(new, ensure_ascii=False, separators=(",", ":"))
        json.loads(out)
    except (ValueError, RecursionError) as exc:
        raise MalformedCompressionError(f"compressed JSON does not parse: {exc}") from exc
    return out


class JsonStrategy(ArtifactStrategy):
    """The seed's JSON strategy: every key and the structure kept, long arrays and strings cut."""

    kind = ArtifactKind.JSON

    def tier2(self, text: str, terms: TaskTerms) -> str:
        """Keep the layout the author chose: pretty when the input spans lines, else compact."""
        return _render(_parse(text), _TIER2, terms, pretty="\n" in text)

    def shrink(self, text: str, terms: TaskTerms, level: int) -> str | None:
        """Compact skeletons, stricter per level (see `_SHRINK_LEVELS`); None after level 5.

        Cutting an array to a marker can be longer than the few items it replaces, so each level
        returns the shortest of the skeletons up to it: the lengths never grow with the level.
        """
        if level < 1:
            raise ValueError(f"shrink level starts at 1, got {level}")
        if level > _MAX_SHRINK_LEVEL:
            return None
        value = _parse(text)
        best = _render(value, _SHRINK_LEVELS[1], terms, pretty=False)
        for current in range(2, level + 1):
            candidate = _render(value, _SHRINK_LEVELS[current], terms, pretty=False)
            if len(candidate) <= len(best):
                best = candidate
        return best

    def priorities(self, lines: list[str], terms: TaskTerms) -> list[Priority]:
        """Keys are the structure the seed protects; task lines next; braces and items last."""
        result: list[Priority] = []
        for line in lines:
            if _KEY_LINE.match(line):
                result.append(Priority.ESSENTIAL)
            elif terms.matches(line):
                result.append(Priority.IMPORTANT)
            else:
                result.append(Priority.CONTEXT)
        return result

    def gap_marker(self, omitted_lines: int) -> str:
        return f"... ({omitted_lines} lines omitted)"
