"""How two rendered prefixes differ, as a provider's prompt cache sees it."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from cleveragents.domain.stable_prefix.rendering import BuiltPrefix, BuiltSection
from cleveragents.domain.stable_prefix.spec import PrefixSection


class SectionChange(StrEnum):
    SAME = "same"
    CHANGED = "changed"
    ADDED = "added"
    REMOVED = "removed"


class SectionComparison(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: PrefixSection
    change: SectionChange
    a_sha256: str
    b_sha256: str


class PrefixDiff(BaseModel):
    """How two prefixes differ, as a cache sees it.

    `first_changed` is where the cache breaks: a request with prefix B reuses A's cached prefix
    at most up to that section (`common_prefix_bytes` counts the identical leading bytes).
    """

    model_config = ConfigDict(frozen=True)

    identical: bool
    a_sha256: str
    b_sha256: str
    first_changed: PrefixSection | None
    changed: tuple[PrefixSection, ...]
    common_prefix_bytes: int
    sections: tuple[SectionComparison, ...]


def _change(a: BuiltSection, b: BuiltSection) -> SectionChange:
    if a.text == b.text:
        return SectionChange.SAME
    if not a.text:
        return SectionChange.ADDED
    return SectionChange.REMOVED if not b.text else SectionChange.CHANGED


def _common_prefix_bytes(a: bytes, b: bytes) -> int:
    return next(
        (index for index, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
        min(len(a), len(b)),
    )


def diff_prefixes(a: BuiltPrefix, b: BuiltPrefix) -> PrefixDiff:
    comparisons = tuple(
        SectionComparison(
            name=left.name, change=_change(left, right), a_sha256=left.sha256, b_sha256=right.sha256
        )
        for left, right in zip(a.sections, b.sections, strict=True)
    )
    changed = tuple(item.name for item in comparisons if item.change is not SectionChange.SAME)
    return PrefixDiff(
        identical=a.text == b.text,
        a_sha256=a.sha256,
        b_sha256=b.sha256,
        first_changed=changed[0] if changed else None,
        changed=changed,
        common_prefix_bytes=_common_prefix_bytes(a.text.encode(), b.text.encode()),
        sections=comparisons,
    )
