"""The excerpt of RFC 2394, the names of the ranks of markdown lines and the check of a verbatim
short form, for the unit, property and corpus tests of the markdown compressor."""

from __future__ import annotations

from tests.conftest import TEST_DATA

CUT = " … "


def assert_verbatim_piece(short: str, line: str) -> None:
    """`short` is the start of `line` up to some point, then stretches of `line` in order, with
    `…` where something was cut (before the first stretch too)."""
    stretches = short.split(CUT)
    head = stretches[0]
    if "… " in head:
        prefix, first = head.split("… ", 1)
        assert line.startswith(prefix)
        stretches[0] = first
        cursor = len(prefix)
    else:
        assert line.startswith(head)
        cursor = len(head)
        stretches = stretches[1:]
    for stretch in stretches:
        found = line.find(stretch, cursor)
        assert found >= cursor, (stretch, line)
        cursor = found + len(stretch)
    assert len(short) < len(line)


EXCERPT = TEST_DATA / "rfc-2394-async_await-excerpt.md"
HEADING, REQUIREMENT, FIRST, STRUCTURE, PROSE, CODE, BLANK = range(7)
