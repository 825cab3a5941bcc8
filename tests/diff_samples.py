"""What the unit and corpus tests of the code-diff compressor both use."""

from __future__ import annotations


def is_subsequence(needles: list[str], haystack: list[str]) -> bool:
    it = iter(haystack)
    return all(any(needle == line for line in it) for needle in needles)
