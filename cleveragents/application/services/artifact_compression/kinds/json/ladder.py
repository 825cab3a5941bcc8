"""Smart mode for JSON: the ladder of levels of detail, richest first, and the search of it
for the richest level whose rendering fits a size."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.kinds.json.detail import (
    Detail,
    kept_items,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey

STRING_STEP = 160
"""Family A's strings grow by this many characters for each extra item an array may keep."""
STRING_FLOOR = 0
"""The shortest head a cut string keeps before keys are dropped."""


SCHEMA_LOST_RANK = 3
"""The rank of the first family that may leave a key path out (an item of a new shape)."""
BREADTH_FIRST_RANK = 5
"""The rank of the first family that drops members of objects."""


class Family(NamedTuple):
    """Levels of detail of one kind, richer as `knob` grows from `low` to `high`."""

    rank: int  # 0 is the richest family
    low: int
    high: Callable[[], int]  # called only when the family is searched
    detail: Callable[[int], Detail]
    between: Callable[[int], list[Family]] | None = None
    """The levels between knob k and k + 1, when the step between them can be large."""
    steep_first_step: bool = False
    """Whether the step from `low` to `low + 1` can be larger than all the others together:
    the search then measures `low + 1` first, and stops there when it is over."""


class Choice(NamedTuple):
    """The level picked and its size. `rank` and `knob` place it on the ladder, and for a
    level between two knobs, `inner_rank` and `inner_knob` place it between them."""

    rank: int
    knob: int
    detail: Detail
    chars: int
    inner_rank: int = 1 << 30  # past every inner family: the knob's own level
    inner_knob: int = 0

    def richer_than(self, other: Choice) -> bool:
        return self._place() < other._place()

    def _place(self) -> tuple[int, int, int, int]:
        return (self.rank, -self.knob, self.inner_rank, -self.inner_knob)


def ladder(survey: Survey) -> list[Family]:
    """Every family of levels, richest first:

    0. first, last, task and new-shape items, plus `t` more items per array (both ends
       inwards), strings cut at about 160 * (t + 1): the whole document at the top. The knob
       is `t` times the number of arrays plus how many of them get one more item;
    1. first, last, task and new-shape items, strings cut at 160 down to a bare ``…``; between
       two string limits, more items per array at the lower one;
    2. the first item, the task items and every new-shape item, each of those by what is new
       in it (`Detail.last` off: the schema before the values), and `t` more items per array
       from the front, strings bare;
    3. as 2 with the first `k` new-shape items only, the last ones found going first;
    4. the first `k` task items (with a task);
    5. first items, and only the first `m` members breadth-first (`Detail.members`): the
       root's members before any of theirs, down to all of the root's;
    6. as 5 with markers that do not name their lines, down to the root's marker.

    One step of families 0, 3 and 4 adds one item, which can be large: between two steps,
    that item is tried less richly (`Detail.partial`), down to its own first members.
    """
    root = survey.root
    if isinstance(root, str):
        return [Family(0, 0, lambda: len(root), lambda limit: Detail(string_limit=limit))]
    if not isinstance(root, dict | list) or not root:
        return [Family(0, 0, lambda: 0, lambda _: Detail())]
    levels = _Levels(survey)
    bare = levels.bare
    return [
        Family(0, 0, lambda: levels.top, levels.sampled, levels.between_sampled),
        # Its lowest level writes a long string as a bare `…`, the next one already as a head
        # and a marker of 20 characters or so: most of the family's range in one step.
        Family(
            1,
            STRING_FLOOR,
            lambda: STRING_STEP,
            levels.cut,
            levels.between_cut,
            steep_first_step=True,
        ),
        Family(2, 0, lambda: levels.top, levels.schema_and_items),
        Family(
            3,
            0,
            lambda: survey.shape_items,
            lambda k: Detail(string_limit=STRING_FLOOR, shapes=k, last=False),
            levels.between_shapes,
        ),
        Family(
            4, 0, lambda: survey.task_items, lambda k: replace(bare, task=k), levels.between_tasks
        ),
        Family(
            BREADTH_FIRST_RANK,
            survey.root_members(),
            lambda: survey.admission_size(root),
            lambda m: replace(bare, members=m),
        ),
        Family(
            BREADTH_FIRST_RANK + 1,
            0,
            lambda: survey.admission_size(root),
            lambda m: replace(bare, members=m, where=False),
        ),
    ]


class _Levels:
    """The levels of `ladder` that take more than one line to say."""

    def __init__(self, survey: Survey) -> None:
        self.survey = survey
        facts = survey.of(survey.root)
        self.arrays = max(survey.arrays, 1)
        whole_strings = 2 * -(-facts.max_string // STRING_STEP)  # a power of two above needed
        self.top = max(facts.max_items, whole_strings) * self.arrays
        self.longest = facts.max_string
        self.bare = Detail(string_limit=STRING_FLOOR, shapes=0, task=0, last=False)

    def sampled(self, knob: int) -> Detail:
        """`t` = knob // arrays more items per array, strings cut at 160 times the largest
        power of two up to t + 1: the limit changes rarely, so measurements of the parts
        where only strings are cut are reused (`Pruner.measure`)."""
        extra, one_more = divmod(knob, self.arrays)
        limit = STRING_STEP << ((extra + 1).bit_length() - 1)
        return Detail(extra_items=extra, one_more_below=one_more, string_limit=limit)

    def cut(self, limit: int) -> Detail:
        return Detail(string_limit=limit)

    def schema_and_items(self, knob: int) -> Detail:
        """Every array's first item and new shapes (each by what is new in it), and
        `knob // arrays` more items from the front, strings bare: between whole shapes and
        the shapes alone."""
        return replace(self.sampled(knob), string_limit=STRING_FLOOR, last=False)

    def between_cut(self, limit: int) -> list[Family]:
        """Between string limit `limit` and the next (a step that changes every long string
        at once, bare ``…`` to a head with its marker): more items per array, the strings as
        they are at `limit`."""
        return [
            Family(
                1, 0, lambda: self.top, lambda knob: replace(self.sampled(knob), string_limit=limit)
            )
        ]

    def between_sampled(self, knob: int) -> list[Family]:
        """Knob + 1 adds one item to array `knob % arrays`: that item less richly, else
        longer strings."""
        shortest = self.sampled(knob).string_limit or 0
        longer = Family(
            0,
            shortest,
            lambda: max(shortest, self.longest),
            lambda limit: replace(self.sampled(knob), string_limit=limit),
        )
        base = self.sampled(knob + 1)
        ordinal = knob % self.arrays
        if not self.survey.arrays:
            return [longer]
        array = self.survey.array(ordinal)
        if len(array) <= knob // self.arrays + 2:
            return [longer]  # the array is whole before the step already: it adds nothing
        _, index = kept_items(
            self.survey.of(array), len(array), replace(base, partial_ordinal=ordinal)
        )
        if index is None:
            return [longer]
        richer = [
            Family(0, 0, lambda: knob, self.sampled),
        ]
        return [*self._partly(base, ordinal, None, array[index], richer), longer]

    def between_shapes(self, rank: int) -> list[Family]:
        """Rank + 1 adds one new-shape item: that item less richly."""
        if rank not in self.survey.shape_places:
            return []
        ordinal, index = self.survey.shape_places[rank]
        base = Detail(string_limit=STRING_FLOOR, shapes=rank + 1, last=False)
        return self._partly(base, ordinal, index, self.survey.array(ordinal)[index], [])

    def between_tasks(self, rank: int) -> list[Family]:
        """Rank + 1 adds one task item: that item less richly."""
        if rank not in self.survey.task_places:
            return []
        ordinal, index = self.survey.task_places[rank]
        base = replace(self.bare, task=rank + 1)
        return self._partly(base, ordinal, index, self.survey.array(ordinal)[index], [])

    def _partly(
        self, base: Detail, ordinal: int, index: int | None, item: object, richer: list[Family]
    ) -> list[Family]:
        """`richer` families and then the item's first members, each as the level of detail
        of that one item in `base`."""
        if not isinstance(item, dict | list) or not item:
            return []

        def partly(inner: Callable[[int], Detail]) -> Callable[[int], Detail]:
            return lambda knob: replace(
                base, partial=inner(knob), partial_ordinal=ordinal, partial_index=index
            )

        members = Family(
            BREADTH_FIRST_RANK,
            0,
            lambda: self.survey.admission_size(item),
            lambda m: replace(self.bare, members=m),
        )
        return [family._replace(detail=partly(family.detail)) for family in [*richer, members]]


CLOSE_ENOUGH = 0.97
"""A level this close to the size limit ends the search of a family's knob."""
ENOUGH = 0.75
"""Once the search has run out of patience, a level this close to the limit ends it."""
SEARCH_STEPS = 16
"""At most this many measurements search one family's knob."""
OVER_CAP = 4
"""A level is measured only up to this many times the size limit: past it, the size only
says that the level is over, and a level ten times too large is not walked whole."""

Measure = Callable[[Detail, float], int]
"""The size of a level in characters, exact up to the cap given, else some size over it."""
Patient = Callable[[], bool]
"""Whether the search may still measure levels to come closer to the size limit. A level's
subtrees are measured once and shared with the levels that render them alike, so a search of
a document made of repeated shapes walks little of it; one whose objects share nothing (an
OpenAPI spec, a lock file keyed by package) walks nearly all of it at each measurement, and
runs out of patience after a few: it then settles for a level within `ENOUGH` of the limit
and leaves the levels between two knobs unsearched."""


def _always() -> bool:
    return True


def richest(
    families: list[Family], measure: Measure, limit: float, patient: Patient = _always
) -> Choice:
    """The richest level whose size (`measure`, characters) is at most `limit`: the first
    family whose poorest level fits, then a search of its knob (sizes grow with the knob,
    near enough; the caller counts the result anyway), then the levels between that knob and
    the next, while the search is `patient`. When nothing fits: the poorest level of all."""
    for family in _worth_trying(families, measure, limit):
        choice = _richest_in(family, measure, limit, patient)
        if choice is None:
            continue
        if (
            family.between is not None
            and patient()
            and choice.chars < limit * CLOSE_ENOUGH
            and choice.knob < family.high()
        ):
            for order, inner in enumerate(family.between(choice.knob)):
                finer = _richest_in(inner, measure, limit, patient)
                if finer is not None:
                    return choice._replace(
                        detail=finer.detail,
                        chars=finer.chars,
                        inner_rank=order,
                        inner_knob=finer.knob,
                    )
        return choice
    last = families[-1]
    detail = last.detail(last.low)
    return Choice(last.rank, last.low, detail, measure(detail, float("inf")))


def _worth_trying(families: list[Family], measure: Measure, limit: float) -> list[Family]:
    """`families`, less those before the last that keeps every key path when its poorest
    level is over `limit`: theirs are larger (they keep the last items too, and whole), so
    they are not walked to learn that they are over as well."""
    schema = [index for index, family in enumerate(families) if family.rank == SCHEMA_LOST_RANK - 1]
    if not schema:
        return families
    family = families[schema[0]]
    if measure(family.detail(family.low), limit) <= limit:
        return families
    return families[schema[0] + 1 :]


def _richest_in(
    family: Family, measure: Measure, limit: float, patient: Patient = _always
) -> Choice | None:
    """The largest knob of `family` whose level fits `limit` (or is within `CLOSE_ENOUGH` of
    it, within `ENOUGH` of it once the search is no longer `patient`, or the best after
    `SEARCH_STEPS` measurements: sizes can jump, and the levels between knobs fill what is
    left): interpolating between the sizes known to fit and not to fit, every other step
    halving instead, so a few measurements do where a plain halving takes twenty."""
    low, high = family.low, family.high()
    low_chars = measure(family.detail(low), limit)
    if low_chars > limit:
        return None
    cap = limit * OVER_CAP
    high_chars = measure(family.detail(high), cap) if high > low else low_chars
    if high_chars <= limit:
        return Choice(family.rank, high, family.detail(high), high_chars)
    if family.steep_first_step and high - low > 1:
        # Interpolating between the ends would probe the flat part of the range, over and
        # over, halving its way down to the step.
        chars = measure(family.detail(low + 1), cap)
        if chars > limit:
            return Choice(family.rank, low, family.detail(low), low_chars)
        low, low_chars = low + 1, chars
    halve = False
    for _ in range(SEARCH_STEPS):
        if high - low <= 1 or low_chars >= limit * (CLOSE_ENOUGH if patient() else ENOUGH):
            break
        if halve or high_chars <= low_chars:
            middle = (low + high) // 2
        else:
            share = (limit - low_chars) / (high_chars - low_chars)
            middle = min(max(low + int(share * (high - low)), low + 1), high - 1)
        halve = not halve
        chars = measure(family.detail(middle), cap)
        if chars <= limit:
            low, low_chars = middle, chars
        else:
            high, high_chars = middle, chars
    return Choice(family.rank, low, family.detail(low), low_chars)
