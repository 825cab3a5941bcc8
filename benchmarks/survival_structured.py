"""The survival benchmark's JSON, diffs and source beyond the corpus: the generated inputs
(benchmarks/generated_structured.py) and the rows that read them with the corpus.

Generated source in languages other than Python is measured on the signature lines the
generator wrote (`ListedCodeMatters`), so no parser of the product's is needed to score it.
The rows: JSON key paths kept at raw/5, diff files named at raw/5 and raw/20, hunk headers at
raw/5, code signatures kept at raw/5 and raw/20, each the least over a set's files (smart).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from benchmarks.generated_structured import CODE, DIFF, JSON, GeneratedArtifact, generate_all
from benchmarks.survival_core import (
    Count,
    Figure,
    Measure,
    Metric,
    Outcome,
    kept,
    min_pct,
    misses,
    select,
    stripped_lines,
    taken_within,
    term_lines,
)
from cleveragents.application.ports.token_counter import TokenCounter


@cache
def _generated() -> tuple[GeneratedArtifact, ...]:
    return tuple(generate_all())


def generated_of(kind: str) -> Callable[[], list[tuple[str, str]]]:
    """The generated inputs of a survival kind (``json``, ``diff``, ``code``): (name, text)."""
    return lambda: [(a.name, a.text) for a in _generated() if a.kind == kind]


def listed_signatures(name: str) -> tuple[str, ...] | None:
    """The signature lines a generated source file was written with; None for another file."""
    for artifact in _generated():
        if artifact.kind == CODE and artifact.name == name:
            return artifact.signatures
    return None


_NAME = re.compile(r"(\w+)\s*\(")


class ListedCodeMatters:
    """The signature lines of a generated source file, as its generator listed them."""

    metrics: tuple[Metric, ...] = (
        Metric("signatures", "signatures % (nested incl.)"),
        Metric("task", "task lines kept %"),
    )
    tiers: tuple[tuple[str, ...], ...] = ()

    def __init__(self, text: str, signatures: tuple[str, ...]) -> None:
        self.signatures = list(signatures)
        named = [match[1] for line in signatures if (match := _NAME.search(line))]
        self.term = named[0] if named else "main"
        self.task = f"how does {self.term} work"
        self.term_lines = term_lines(text, self.term, strip=True)

    def holds(self, budget: int) -> bool:
        return False

    def score(self, content: str) -> dict[str, Count]:
        found = stripped_lines(content)
        return {
            "signatures": kept(self.signatures, found),
            "task": kept(self.term_lines, found),
        }


def signature_costs(signatures: Sequence[str], text: str, counter: TokenCounter) -> list[int]:
    """Each distinct signature line's tokens as the file writes it (indented), with its
    newline, cheapest first."""
    wanted = {line.strip() for line in signatures}
    as_written: dict[str, str] = {}
    for line in text.splitlines():
        key = line.strip()
        if key in wanted:
            as_written.setdefault(key, line)
    return sorted(counter.count(line + "\n") for line in as_written.values())


def reach(costs: Sequence[int], budget: int) -> float:
    """The share of the distinct signature lines a budget can hold whole at best: the
    cheapest first, as the file writes them, with no marker. Below the target, no output that
    keeps lines whole can meet it."""
    return taken_within(costs, budget) / len(costs) if costs else 1.0


Held = Callable[[Outcome, float], bool]


def skeleton_held(outcome: Outcome, target: float) -> bool:
    """The budget holds the document's skeleton."""
    return outcome.holds


def reachable(outcome: Outcome, target: float) -> bool:
    """The budget can hold the target's share of the signature lines whole."""
    return 100 * float(outcome.extra.get("reach", 1.0)) >= target


def _least_at(
    kind: str, key: str, ratio: float, target: float, held: Held | None
) -> Callable[..., Figure | None]:
    """The least % of `key` smart mode keeps at `ratio` over a set's files of `kind` (with
    `held`, the files whose budget holds what the target needs: a JSON document's skeleton,
    the target's share of a file's signature lines; the others are listed apart, with what
    their budget could hold at best)."""

    def figure(outcomes: list[Outcome]) -> Figure | None:
        at = select(outcomes, kind=kind, ratio=ratio)
        apart = {
            o.name: _kept_and_reach(o, key)
            for o in select(at, method="smart")
            if held is not None and not held(o, target)
        }
        at = [o for o in at if held is None or held(o, target)]
        smart, counted = min_pct(select(at, method="smart"), key)
        if not counted:
            return None
        tiered = min_pct(select(at, method="tiered"), key)[0]
        short = [o for o in counted if (o.scores[key].pct or 0.0) < target]
        per_file = {o.name: round(o.scores[key].pct or 0.0, 1) for o in counted}
        details = {"short": misses(short), "files": per_file, "below_what_is_needed": apart}
        return Figure(smart, tiered, smart >= target, details)

    return figure


def _kept_and_reach(outcome: Outcome, key: str) -> str:
    kept_pct = outcome.scores[key].pct or 0.0
    if "reach" not in outcome.extra:
        return f"{kept_pct:.1f}%"
    return f"{kept_pct:.1f}% (whole lines reach {100 * float(outcome.extra['reach']):.1f}%)"


# kind, score, label, ratio, target %, which files the target applies to (None: all)
STRUCTURED_ROWS: tuple[tuple[str, str, str, float, float, Held | None], ...] = (
    (JSON, "paths", "JSON key paths kept", 5.0, 90.0, skeleton_held),
    (DIFF, "files", "diff files named", 5.0, 100.0, None),
    (DIFF, "files", "diff files named", 20.0, 100.0, None),
    (DIFF, "hunks", "diff hunk headers", 5.0, 80.0, None),
    (CODE, "signatures", "code signatures", 5.0, 60.0, None),
    (CODE, "signatures", "code signatures", 20.0, 60.0, reachable),
)
_HELD_LABEL: dict[Held, str] = {
    skeleton_held: ", budget >= skeleton)",
    reachable: ", budget >= the target's share of them)",
}

STRUCTURED_MEASURES: list[Measure] = [
    Measure(
        f"survival {label} at raw/{ratio:g}, smart (least file"
        + (_HELD_LABEL[held] if held is not None else ")"),
        f">= {target:.0f}% in every file",
        "tiered, least",
        _least_at(kind, key, ratio, target, held),
    )
    for kind, key, label, ratio, target, held in STRUCTURED_ROWS
]
