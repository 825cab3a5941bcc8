"""JSON artifacts, Tier 2: every key and the structure kept, long arrays and strings cut, in one
linear pass (the decisions visible in the output are listed in `compressor`)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from cleveragents.application.services.artifact_compression.kinds.json.pretty_text import (
    pretty_json,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    MalformedCompressionError,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

_MARKER_KEY = "_truncated"


@dataclass(frozen=True, slots=True)
class _Limits:
    """How much Tier 2 keeps."""

    threshold: int  # arrays longer than this are cut
    head: int
    tail: int
    string_limit: int


TIER2 = _Limits(threshold=10, head=5, tail=2, string_limit=200)


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


def parse_document(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MalformedCompressionError(f"not valid JSON: {exc}") from exc


def render_tier2(value: object, limits: _Limits, terms: TaskTerms, *, pretty: bool) -> str:
    """Transform and serialise, then prove the result parses (the design's validation)."""
    try:
        new, _ = _Transformer(limits, terms).transform(value)
        if pretty:
            out = pretty_json(new)  # json.dumps(new, ensure_ascii=False, indent=2), faster
        else:
            out = json.dumps(new, ensure_ascii=False, separators=(",", ":"))
        json.loads(out)
    except (ValueError, RecursionError) as exc:
        raise MalformedCompressionError(f"compressed JSON does not parse: {exc}") from exc
    return out
