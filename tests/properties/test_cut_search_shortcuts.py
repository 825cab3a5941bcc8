"""The cut searches' shortcuts (the first or last space found with `str.find`, a join tested
without building it) give what the plain rules give, on the adversarial texts of the cut
tests and on text made of the characters the shortcuts test: spaces after words and after
whitespace, line breaks around them, slashes, tabs and Unicode spaces."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.adapters.tokens import tiktoken_counter
from cleveragents.adapters.tokens.tiktoken_counter import (
    first_cut_inside,
    last_cut_inside,
    next_safe_split_point,
    safe_split_point,
)
from tests.properties.test_cuts_inside_lines import _texts

_SPACE_CUT = re.compile(r"(?<=\S) ")
_LAST_SPACE_CUT = re.compile(r".*\S( )", re.DOTALL)
_PUNCTUATION_CUT = re.compile(r"(?<=[A-Za-z0-9])[!-&(-/:-@\[-`{-~]")
_near_cuts = st.lists(
    st.sampled_from(
        ["a", "7", ".", "/", " ", "  ", "\t", "\n", "\n ", "\u00a0", "\u3000", "é", '"', "'", "{"]
    ),
    max_size=24,
).map("".join)
_any = st.one_of(_texts, _near_cuts)


def _plain_first(text: str) -> int | None:
    line_cut = next_safe_split_point(text, 1)
    end = len(text) if line_cut is None else line_cut
    space = _SPACE_CUT.search(text, 1, end)
    if space is not None:
        return space.start()
    if line_cut is not None:
        return line_cut
    return next((found.start() for found in _PUNCTUATION_CUT.finditer(text, 1)), None)


def _plain_last(text: str) -> int | None:
    line_cut = safe_split_point(text)
    start = 1 if line_cut is None else line_cut + 1
    space = text.rfind(" ", start)
    if space > 0 and not text[space - 1].isspace():
        return space
    if space > start:
        found = _LAST_SPACE_CUT.match(text, start - 1, space)
        if found is not None:
            return found.start(1)
    if line_cut is not None:
        return line_cut
    return max((found.start() for found in _PUNCTUATION_CUT.finditer(text, 1)), default=None)


def _plain_meet(left: str, right: str) -> bool:
    before, after = left[-1], right[0]
    blanks_then_one = len(right) - len(right.lstrip(" \t")) + 1
    if before == "\n" and tiktoken_counter._cuts_after("\n" + right[:blanks_then_one], 0):
        return True
    if after == " ":
        return not before.isspace()
    return after == "\n" and before.isalnum()


@given(text=_any)
def test_the_first_and_last_cut_inside_are_the_plain_rules(text: str) -> None:
    assert first_cut_inside(text) == _plain_first(text)
    assert last_cut_inside(text) == _plain_last(text)


@given(left=_any.filter(bool), right=_any.filter(bool))
def test_two_runs_meet_at_a_cut_by_the_plain_rule(left: str, right: str) -> None:
    assert tiktoken_counter._meet_at_cut(left, right) == _plain_meet(left, right)
