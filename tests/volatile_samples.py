"""The volatile findings of a text as (kind, value) pairs, for the unit and property tests."""

from __future__ import annotations

from cleveragents.domain.volatile_content import VolatileKind, find_volatile


def kinds(text: str, context: str = "") -> list[tuple[VolatileKind, str]]:
    return [(finding.kind, finding.value) for finding in find_volatile(text, context=context)]
