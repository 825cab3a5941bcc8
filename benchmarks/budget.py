"""Benchmark: the context budget's per-line estimate against exact token counts, per kind.

For every corpus file of a measured kind (benchmarks/budget_weights.py), the planner's estimate,
``ceil(lines * weight)`` with the shipped weights, is compared with the exact cl100k_base count.
Per kind: the mean absolute error per file (measured), beside the same figure for the generic
``ceil(chars / 4)`` estimate (baseline) that the product falls back to elsewhere; the pooled,
signed error of the kind's total; and the leave-one-out error, each file estimated with the
weight derived from the *other* files of its kind, because the shipped weights were measured on
these very files. The source files of tests/data/source (one small program in C, C++, Go, Java,
JavaScript, Python, Rust, TypeScript and TSX) are held out: the weights never saw them.

A kind meets its target when its pooled estimate is not below the exact total (the estimate errs
toward warning). Last, the planner itself on a corpus "story" (spec, test plan, module doc and
two changed source files): its estimated total against ``--exact``, and whether both give the
same tier.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from benchmarks.budget_weights import (
    CORPUS,
    ENCODING,
    FileCount,
    count_files,
    files_in,
    measure,
    weight_of,
)
from benchmarks.report import Result, print_line, print_section
from cleveragents.adapters.budget_weights.heuristics_file import default_heuristics
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.budget.context_budget_planner import (
    ContextBudgetPlanner,
    PlannedArtifact,
)
from cleveragents.domain.context_budget import (
    DEFAULT_AVAILABLE_TOKENS,
    DEFAULT_COMMITTED_TOKENS,
    BudgetKind,
    estimate_tokens,
)
from cleveragents.domain.tokens import heuristic_token_estimate

_REPO = Path(__file__).resolve().parent.parent
HELD_OUT_SOURCE = _REPO / "tests" / "data" / "source"


def _error(estimated: int, exact: int) -> Fraction:
    return Fraction(estimated - exact, max(exact, 1))


def _mean_abs(errors: Sequence[Fraction]) -> float:
    return float(sum(abs(e) for e in errors) / len(errors)) if errors else 0.0


def _leave_one_out(files: Sequence[FileCount]) -> list[Fraction]:
    errors = []
    for index, held in enumerate(files):
        others = [f for i, f in enumerate(files) if i != index]
        if not others:
            continue
        weight = weight_of(sum(f.tokens for f in others), sum(f.lines for f in others))
        errors.append(_error(estimate_tokens(held.lines, weight), held.tokens))
    return errors


def _kind_result(label: str, files: Sequence[FileCount], weight: Decimal) -> Result:
    estimates = [estimate_tokens(f.lines, weight) for f in files]
    errors = [_error(e, f.tokens) for e, f in zip(estimates, files, strict=True)]
    chars = [heuristic_token_estimate(f.path.read_text(encoding="utf-8")) for f in files]
    baseline = [_error(c, f.tokens) for c, f in zip(chars, files, strict=True)]
    exact_total, estimated_total = sum(f.tokens for f in files), sum(estimates)
    pooled = float(_error(estimated_total, exact_total))
    loo = _mean_abs(_leave_one_out(files))
    measured, chars_error = _mean_abs(errors), _mean_abs(baseline)
    print_line(
        f"{label}: weight {weight}, {len(files)} files, {exact_total:,} tokens; mean |error| "
        f"{measured:.1%} (chars/4: {chars_error:.1%}), pooled {pooled:+.1%}, "
        f"leave-one-out {loo:.1%}"
    )
    for f, estimate, error in zip(files, estimates, errors, strict=True):
        print_line(
            f"    {f.path.name:<44} {f.lines:>6,} lines  exact {f.tokens:>7,}  "
            f"estimate {estimate:>7,}  {float(error):+7.1%}"
        )
    return Result(
        name=f"budget estimate, mean abs error per file, {label}",
        measured=measured * 100,
        baseline=chars_error * 100,
        ratio=measured / chars_error if chars_error else 0.0,
        unit="%",
        target="pooled estimate >= exact",
        met=estimated_total >= exact_total,
        baseline_label="chars/4",
        details={
            "weight": float(weight),
            "files": len(files),
            "lines": sum(f.lines for f in files),
            "exact_tokens": exact_total,
            "estimated_tokens": estimated_total,
            "pooled_error": round(pooled, 4),
            "leave_one_out_mean_abs_error": round(loo, 4),
            "per_file_error": {
                f.path.name: round(float(e), 4) for f, e in zip(files, errors, strict=True)
            },
        },
    )


def _story(counter: TiktokenCounter) -> Result:
    markdown, code = CORPUS / "markdown", CORPUS / "code"
    roles = [
        (markdown / "rfc-2394-async_await.md", BudgetKind.SPEC),
        (markdown / "rfc-3392-leadership-council.md", BudgetKind.TEST_PLAN),
        (markdown / "rfc-2094-nll.md", BudgetKind.MODULE_DOC),
        (code / "click-core.py", BudgetKind.SOURCE),
        (code / "click-types.py", BudgetKind.SOURCE),
    ]
    artifacts = [
        PlannedArtifact(path=path.name, kind=kind, text=path.read_text(encoding="utf-8"))
        for path, kind in roles
    ]
    planner = ContextBudgetPlanner(counter)
    estimated, counted = (
        planner.plan(
            artifacts,
            default_heuristics(),
            available=DEFAULT_AVAILABLE_TOKENS,
            committed=DEFAULT_COMMITTED_TOKENS,
            exact=exact,
        )
        for exact in (False, True)
    )
    error = float(_error(estimated.artifact_tokens, counted.artifact_tokens))
    print_line(
        f"planner on a corpus story ({len(artifacts)} artifacts): estimate "
        f"{estimated.artifact_tokens:,} ({estimated.tier.value}), exact "
        f"{counted.artifact_tokens:,} ({counted.tier.value}), error {error:+.1%}"
    )
    return Result(
        name="budget planner total, corpus story",
        measured=estimated.artifact_tokens,
        baseline=counted.artifact_tokens,
        ratio=estimated.artifact_tokens / counted.artifact_tokens,
        unit="tokens",
        target="same tier as --exact",
        met=estimated.tier is counted.tier,
        baseline_label=f"--exact ({ENCODING})",
        details={"estimated_tier": estimated.tier.value, "exact_tier": counted.tier.value},
    )


def run() -> list[Result]:
    print_section(
        f"context budget: per-line estimate vs exact {ENCODING} counts per kind "
        "(mean |error| per file; baseline chars/4)"
    )
    counter = TiktokenCounter(ENCODING)
    weights = default_heuristics().weights
    results = []
    for measurement in measure(counter):
        kinds = "/".join(kind.value for kind in measurement.kinds)
        weight = weights[measurement.kinds[0]]
        results.append(_kind_result(f"{kinds} ({measurement.folder})", measurement.files, weight))
    held_out = count_files(files_in(HELD_OUT_SOURCE), counter)
    results.append(
        _kind_result("source (held out: tests/data/source)", held_out, weights[BudgetKind.SOURCE])
    )
    results.append(_story(counter))
    return results
