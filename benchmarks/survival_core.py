"""The survival benchmark's parts every type shares: counts, outcomes and the measures.

A `Measure` is one row of the report: a figure computed from the outcomes of one set of inputs
(the shared corpus, or the generated inputs in the formats the corpus lacks), with its target.
The report computes it on each set apart, and the row is met only when it holds on every set
that has outputs it counts: a row that holds on the corpus alone is not met.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.report import Result

SETS = ("corpus", "generated")


@dataclass(frozen=True)
class Count:
    """How many of an input's items an output kept."""

    kept: int
    total: int

    @property
    def pct(self) -> float | None:
        return 100 * self.kept / self.total if self.total else None

    @property
    def whole(self) -> bool:
        return self.kept == self.total


NONE = Count(0, 0)


def kept(items: Iterable[str], found: set[str]) -> Count:
    distinct = set(items)
    return Count(len(distinct & found), len(distinct))


def taken_within(costs: Iterable[int], budget: int) -> int:
    """How many of `costs`, in order, fit `budget` together (stopping at the first that does
    not)."""
    taken = total = 0
    for cost in costs:
        if total + cost > budget:
            break
        total += cost
        taken += 1
    return taken


def lines_of(text: str) -> set[str]:
    return {line.rstrip("\r") for line in text.splitlines()}


def stripped_lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines()}


def names(term: str) -> re.Pattern[str]:
    """The term as a whole word (a dotted name counts whole: ``a.b`` is not in ``a.bc``)."""
    return re.compile(rf"(?<![\w.$]){re.escape(term)}(?![\w$])")


def term_lines(text: str, term: str, strip: bool = False) -> list[str]:
    pattern = names(term)
    lines = (line.strip() if strip else line.rstrip("\r") for line in text.splitlines())
    return [line for line in lines if line and pattern.search(line)]


@dataclass(frozen=True)
class Metric:
    """A figure of the table: `key` in the scores, how its files add up (mean % or n/N)."""

    key: str
    label: str
    summed: bool = False


@dataclass(frozen=True)
class Outcome:
    """One method's output of one input at one ratio, scored."""

    kind: str
    name: str
    ratio: float
    method: str
    raw_tokens: int
    budget: int
    tokens: int
    scores: dict[str, Count]
    order: bool | None
    generated: bool = False
    holds: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def fits(self) -> bool:
        return self.tokens <= self.budget

    @property
    def share(self) -> float:
        return self.tokens / self.budget

    @property
    def set_name(self) -> str:
        return SETS[1] if self.generated else SETS[0]


def select(outcomes: list[Outcome], **where: Any) -> list[Outcome]:
    return [o for o in outcomes if all(getattr(o, k) == v for k, v in where.items())]


def ratio_label(ratio: float) -> str:
    return f"raw/{ratio:g}"


def misses(outcomes: list[Outcome]) -> list[str]:
    return [f"{o.name} {ratio_label(o.ratio)} {o.method}" for o in outcomes]


def min_pct(outcomes: list[Outcome], key: str) -> tuple[float, list[Outcome]]:
    """The least % of `key` kept over the outputs that have such items, and those outputs."""
    counted = [o for o in outcomes if o.scores[key].total]
    values = [o.scores[key].pct or 0.0 for o in counted]
    return (min(values) if values else 100.0), counted


# --- the measures -------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A measure on one set: the figure, its baseline in the same run, whether it holds."""

    measured: float
    baseline: float
    met: bool
    details: dict[str, Any] = field(default_factory=dict)
    out_of: int | None = None  # for a count of outputs: how many were counted

    def shown(self, unit: str) -> str:
        if self.out_of is not None:
            return f"{self.measured:g}/{self.out_of}"
        return f"{self.measured:.1f}%" if unit == "%" else f"{self.measured:g}"


@dataclass(frozen=True)
class Measure:
    """One row of the report.

    `figure` reads the outcomes of one set (every kind, ratio and method of it) and returns
    None when the set has no output the measure counts (a kind with no generated inputs).
    """

    name: str
    target: str
    baseline_label: str
    figure: Callable[[list[Outcome]], Figure | None]
    unit: str = "%"


def measure_result(measure: Measure, outcomes: list[Outcome]) -> Result:
    """The measure on each set apart, as one row: met when it holds on every set that has
    outputs it counts; the figure shown is a set's where it fails (else the generated set's).
    """
    figures = {name: measure.figure([o for o in outcomes if o.set_name == name]) for name in SETS}
    present = {name: figure for name, figure in figures.items() if figure is not None}
    failing = [figure for figure in present.values() if not figure.met]
    shown = failing[0] if failing else (list(present.values()) or [Figure(0, 0, False)])[-1]
    per_set = ", ".join(
        f"{name} {'-' if figure is None else figure.shown(measure.unit)}"
        for name, figure in figures.items()
    )
    return Result(
        name=f"{measure.name} [{per_set}]",
        measured=shown.measured,
        baseline=shown.baseline,
        ratio=shown.measured / shown.baseline if shown.baseline else shown.measured,
        unit=measure.unit,
        target=measure.target,
        met=bool(present) and not failing,
        baseline_label=measure.baseline_label,
        details={
            name: None if figure is None else {**figure.details, "measured": figure.measured}
            for name, figure in figures.items()
        },
    )
