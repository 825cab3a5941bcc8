"""Smart mode's packer: which lines are kept, and how (whole, as their short form, dropped).

One small int per line, at slot ``position + 1``; the slots before the first line and after
the last hold `EDGE`, which counts as kept where a line asks whether its neighbour is (no
marker opens beyond the artifact's ends). When every line is a candidate the states are a
`bytearray`: the packer's loop reads and writes it at the cost of a list, and the runs of kept
lines and the lone gaps between them are found by a regular expression over it, in C. A sparse
selection of lines (a streamed artifact, whose line count may be huge) keeps its states in a
dict that answers `DROPPED` for any line it does not hold.
"""

from __future__ import annotations

import re

DROPPED = 0
SHORT = 1  # kept as its short form
WHOLE = 2
EDGE = 3  # before the first line, after the last

_STRETCH = re.compile(rb"\x02+|\x01")  # a run of lines kept whole, or one short form
_LONE_GAP = re.compile(rb"(?<=[\x01\x02])\x00(?=[\x01\x02])")


class SparseStates(dict[int, int]):
    """The states of a sparse selection: `DROPPED` for any slot not held."""

    def __missing__(self, slot: int) -> int:
        return DROPPED


LineStates = bytearray | SparseStates


def new_states(total_lines: int, every_line: bool) -> LineStates:
    """Every line dropped; `every_line`: every line of the artifact is a candidate."""
    if every_line:
        states = bytearray(total_lines + 2)
        states[0] = states[-1] = EDGE
        return states
    sparse = SparseStates()
    sparse[0] = sparse[total_lines + 1] = EDGE
    return sparse


def kept_stretches(states: LineStates) -> list[tuple[int, int, bool]]:
    """The kept lines in position order, as (first, last, whole): each run of lines kept
    whole, and each line kept as its short form alone."""
    if isinstance(states, bytearray):
        return [
            (start - 1, end - 2, states[start] == WHOLE)
            for start, end in map(re.Match.span, _STRETCH.finditer(states))
        ]
    stretches: list[tuple[int, int, bool]] = []
    for slot in sorted(slot for slot, state in states.items() if state in (SHORT, WHOLE)):
        position = slot - 1
        whole = states[slot] == WHOLE
        if whole and stretches and stretches[-1][2] and stretches[-1][1] == position - 1:
            stretches[-1] = (stretches[-1][0], position, True)
        else:
            stretches.append((position, position, whole))
    return stretches


def lone_gaps(states: LineStates) -> list[int]:
    """The positions of the dropped lines alone between two kept lines, ascending."""
    if isinstance(states, bytearray):
        return [found.start() - 1 for found in _LONE_GAP.finditer(states)]
    kept = (SHORT, WHOLE)
    return sorted(
        slot  # the kept line's slot is the position of the line after it
        for slot, state in list(states.items())
        if state in kept and states[slot + 1] == DROPPED and states[slot + 2] in kept
    )


def nothing_kept(states: LineStates) -> bool:
    if isinstance(states, bytearray):
        return states.count(DROPPED) == len(states) - 2
    return all(state in (DROPPED, EDGE) for state in states.values())
