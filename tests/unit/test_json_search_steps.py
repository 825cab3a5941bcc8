"""The JSON ladder's search of a family whose first step is steep (the string limit's: bare `…`
at its lowest level, a head and a marker at the next) measures that step before anything else."""

from __future__ import annotations

from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail
from cleveragents.application.services.artifact_compression.kinds.json.ladder import (
    Family,
    richest,
)


class _Cliff:
    """A measure whose level `string_limit = k` is 1000 characters at 0 and `3000 + k` above
    (a cliff, then flat), and the limits it was asked for."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def __call__(self, detail: Detail, cap: float) -> int:
        limit = detail.string_limit or 0
        self.asked.append(limit)
        return 1000 if limit == 0 else 3000 + limit


def _family(*, steep: bool) -> Family:
    return Family(
        1, 0, lambda: 160, lambda limit: Detail(string_limit=limit), steep_first_step=steep
    )


def test_a_steep_first_step_over_the_limit_ends_the_search_at_once() -> None:
    sizes = _Cliff()
    choice = richest([_family(steep=True)], sizes, 2000)
    assert (choice.knob, choice.chars) == (0, 1000)
    assert sizes.asked == [0, 160, 1]


def test_without_the_flag_the_search_halves_its_way_down_the_flat_part() -> None:
    sizes = _Cliff()
    choice = richest([_family(steep=False)], sizes, 2000)
    assert (choice.knob, choice.chars) == (0, 1000)
    assert len(sizes.asked) > 5  # what the flag spares


def test_a_steep_first_step_that_fits_goes_on_searching_from_it() -> None:
    sizes = _Cliff()
    choice = richest([_family(steep=True)], sizes, 3100)
    assert sizes.asked[:3] == [0, 160, 1]
    assert choice.knob == 100
    assert choice.chars == 3100
