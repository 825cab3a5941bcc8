"""Benchmark 1: skeleton compression of 1,000,000 fragments, and its n log n growth.

Baseline, measured in the same run on the same data: a plain ``sorted()`` of the
``(-relevance, fragment_id)`` keys the compressor ranks by (the keys are built outside the timed
section, so the baseline is the sort alone).
"""

from __future__ import annotations

import math
import random
from itertools import product

from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import best, repeat
from cleveragents.application.services.plans.skeleton_compressor import SkeletonCompressorService
from cleveragents.domain.fragment import ContextFragment

SIZES = (125_000, 250_000, 500_000, 1_000_000)
RATIO = 0.3
REPEATS = 3
SEED = 20240601
TARGET_SECONDS = 2.0
GROWTH_TOLERANCE = 1.3  # time/(n log2 n) at the largest n, relative to the smallest

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_PAIRS = tuple(a + b for a, b in product(_CROCKFORD, repeat=2))  # 1024 two-digit codes
_ULID_PREFIX = "01J" + "0" * 17  # 20 characters; the counter fills the last 6


def counter_ulid(index: int) -> str:
    """A valid 26-character ULID text for `index` (< 32**6), increasing with it."""
    return (
        _ULID_PREFIX
        + _PAIRS[(index >> 20) & 1023]
        + _PAIRS[(index >> 10) & 1023]
        + _PAIRS[index & 1023]
    )


def make_fragments(count: int, seed: int = SEED) -> list[ContextFragment]:
    """Deterministic fragments, one decision each, as `PlanService.decide` records them: the
    fragment id is the decision's ULID. Relevance has three decimals, so ties occur and the
    fragment-id tie-break is exercised."""
    rng = random.Random(seed)
    construct = ContextFragment.model_construct
    fragments = []
    for index in range(count):
        ulid = counter_ulid(index)
        fragments.append(
            construct(
                fragment_id=ulid,
                decision_id=ulid,
                relevance=rng.randrange(1001) / 1000,
                token_count=rng.randint(0, 400),
            )
        )
    return fragments


def _check_sample(fragments: list[ContextFragment]) -> None:
    """The constructed fragments are valid ones (model_construct skips validation)."""
    for fragment in fragments[:1000]:
        ContextFragment.model_validate(fragment.model_dump())


def _measure(
    compressor: SkeletonCompressorService, subset: list[ContextFragment]
) -> dict[str, float]:
    """Best-of-N times of `compress` and of the sorted() baseline on the same fragments."""
    keys = [(-f.relevance, f.fragment_id) for f in subset]
    result = compressor.compress(subset, RATIO)  # warm-up, and a check against the baseline
    if (-result.fragments[0].relevance, result.fragments[0].fragment_id) != min(keys):
        raise AssertionError("the compressor's top fragment differs from the sorted baseline")
    kept = len(result.fragments)
    del result
    compress_s = best(repeat(lambda: compressor.compress(subset, RATIO), REPEATS))
    sort_s = best(repeat(lambda: sorted(keys), REPEATS))
    return {"n": len(subset), "compress_s": compress_s, "sorted_s": sort_s, "kept": kept}


def run() -> list[Result]:
    print_section(f"skeleton compression (ratio {RATIO}, best of {REPEATS})")
    largest = max(SIZES)
    fragments = make_fragments(largest)
    _check_sample(fragments)
    compressor = SkeletonCompressorService()

    rows = [_measure(compressor, fragments[:n]) for n in SIZES]

    smallest = rows[0]
    unit_compress = smallest["compress_s"] / (smallest["n"] * math.log2(smallest["n"]))
    unit_sorted = smallest["sorted_s"] / (smallest["n"] * math.log2(smallest["n"]))
    print_line(
        f"{'n':>9} | {'kept':>7} | {'compress':>10} | {'sorted()':>10} | {'ratio':>6} | "
        f"{'compress/(n lg n)':>17} | {'sorted/(n lg n)':>15}"
    )
    for row in rows:
        n_log_n = row["n"] * math.log2(row["n"])
        row["compress_norm"] = row["compress_s"] / n_log_n / unit_compress
        row["sorted_norm"] = row["sorted_s"] / n_log_n / unit_sorted
        row["ratio"] = row["compress_s"] / row["sorted_s"]
        print_line(
            f"{int(row['n']):>9,} | {int(row['kept']):>7,} | {row['compress_s']:>8.3f} s | "
            f"{row['sorted_s']:>8.3f} s | {row['ratio']:>5.2f}x | "
            f"{row['compress_norm']:>17.2f} | {row['sorted_norm']:>15.2f}"
        )

    top = rows[-1]
    return [
        Result(
            name=f"skeleton compress {largest:,} fragments",
            measured=top["compress_s"],
            baseline=top["sorted_s"],
            ratio=top["ratio"],
            unit="s",
            target=f"< {TARGET_SECONDS:g} s",
            met=top["compress_s"] < TARGET_SECONDS,
            baseline_label="sorted(keys)",
            details={"ratio_arg": RATIO, "repeats": REPEATS, "seed": SEED, "sizes": rows},
        ),
        Result(
            name="skeleton growth, t/(n lg n) at 1M vs 125k",
            measured=top["compress_norm"],
            baseline=top["sorted_norm"],
            ratio=top["compress_norm"] / top["sorted_norm"],
            unit="",
            target=f"<= {GROWTH_TOLERANCE:g} (n log n)",
            met=top["compress_norm"] <= GROWTH_TOLERANCE,
            baseline_label="sorted() growth",
            details={"normalised_to_n": int(smallest["n"])},
        ),
    ]
