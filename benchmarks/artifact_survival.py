"""Benchmark: how much more of what matters survives in smart mode than in seed mode (SPEC C4).

Every corpus file of every type is compressed to 1/5 and 1/20 of its raw token count (5x and
20x over budget) in seed mode (the baseline, run on the same file in the same run) and in smart
mode. "What matters" is found in the original with rules of this benchmark's own, independent
of the product's classifiers, and an item survives when it is in the content verbatim:

* logs: lines with an ERROR, WARN or FATAL level (upper-case word, bracketed word such as
  Apache's ``[error]``, or syslog's ``: error:``), as whole lines;
* diffs: file headers (``diff --git``, ``+++``), hunk headers (``@@``) and the ``def`` and
  ``class`` signature lines of Python files, as whole lines;
* JSON: the distinct key names, as quoted strings anywhere in the content;
* markdown: heading lines outside code fences, as whole lines;
* code: module-level and class-level ``def`` and ``class`` lines (from ``ast``), as whole lines
  (leading and trailing whitespace ignored).

A figure is the mean, over a type's files, of the percentage of its distinct items that
survive. Every content is also counted with the real tokenizer and checked against its budget.
"""

from __future__ import annotations

import ast
import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

from benchmarks.artifacts import IMPORTANT_LOG_LINE, TYPES, ArtifactType, corpus_files
from benchmarks.report import Result, print_line, print_section
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compressor import ArtifactCompressorService
from cleveragents.container import build_container
from cleveragents.domain.artifact import CompressionMode

OVER_BUDGET = (5, 20)

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s+\S|\s*$)")
_PY_SIGNATURE = re.compile(r"^[ +-]\s*(?:async\s+def|def|class)\s+\w")
_DIFF_PATH = re.compile(r"^diff --git a/\S+ b/(\S+)")


def _lines(text: str) -> set[str]:
    return {line.rstrip("\r") for line in text.splitlines()}


def _stripped_lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines()}


def log_items(text: str) -> set[str]:
    return {line.rstrip("\r") for line in text.splitlines() if IMPORTANT_LOG_LINE.search(line)}


def diff_items(text: str) -> set[str]:
    items: set[str] = set()
    python = False
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if match := _DIFF_PATH.match(line):
            python = match.group(1).endswith(".py")
            items.add(line)
        elif line.startswith(("+++ ", "@@")) or (python and _PY_SIGNATURE.match(line)):
            items.add(line)
    return items


def json_items(text: str) -> set[str]:
    keys: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                keys.add(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(text))
    return keys


def markdown_items(text: str) -> set[str]:
    items: set[str] = set()
    fenced = False
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and _HEADING.match(line):
            items.add(line)
    return items


def code_items(text: str) -> set[str]:
    lines = text.splitlines()
    items: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                items.add(lines[node.lineno - 1].strip())
                if isinstance(node, ast.ClassDef):
                    visit(node.body)

    visit(ast.parse(text).body)
    return items


def _whole_line(items: set[str], content: str) -> set[str]:
    return items & _lines(content)


def _stripped_line(items: set[str], content: str) -> set[str]:
    return items & _stripped_lines(content)


def _quoted_key(items: set[str], content: str) -> set[str]:
    return {
        key
        for key in items
        if json.dumps(key) in content or json.dumps(key, ensure_ascii=False) in content
    }


@dataclass(frozen=True)
class Matters:
    """How a type's items are found in the original and looked for in the content."""

    items: Callable[[str], set[str]]
    survivors: Callable[[set[str], str], set[str]]


MATTERS: dict[str, Matters] = {
    "log": Matters(log_items, _whole_line),
    "diff": Matters(diff_items, _whole_line),
    "json": Matters(json_items, _quoted_key),
    "markdown": Matters(markdown_items, _whole_line),
    "code": Matters(code_items, _stripped_line),
}


@dataclass(frozen=True)
class Survival:
    kind: str
    file: str
    factor: int
    raw_tokens: int
    budget: int
    items: int
    seed_kept: int
    smart_kept: int
    seed_tokens: int
    smart_tokens: int

    @property
    def seed_pct(self) -> float:
        return 100 * self.seed_kept / self.items

    @property
    def smart_pct(self) -> float:
        return 100 * self.smart_kept / self.items

    @property
    def fits(self) -> bool:
        return self.seed_tokens <= self.budget and self.smart_tokens <= self.budget


def _measure_file(
    service: ArtifactCompressorService,
    counter: TokenCounter,
    kind: ArtifactType,
    path: Path,
) -> list[Survival]:
    text = path.read_text(encoding="utf-8", errors="replace")
    matters = MATTERS[kind.key]
    items = matters.items(text)
    raw_tokens = counter.count(text)
    rows = []
    for factor in OVER_BUDGET:
        budget = max(raw_tokens // factor, 1)
        seed = service.compress_text(path.name, text, budget, mode=CompressionMode.SEED)
        smart = service.compress_text(path.name, text, budget, mode=CompressionMode.SMART)
        rows.append(
            Survival(
                kind=kind.key,
                file=path.name,
                factor=factor,
                raw_tokens=raw_tokens,
                budget=budget,
                items=len(items),
                seed_kept=len(matters.survivors(items, seed.content)),
                smart_kept=len(matters.survivors(items, smart.content)),
                seed_tokens=counter.count(seed.content),
                smart_tokens=counter.count(smart.content),
            )
        )
    return rows


def _print_type(kind: str, rows: list[Survival]) -> None:
    print_line(
        f"{kind}: {'file':<40} | {'over':>4} | {'budget':>7} | {'items':>5} | "
        f"{'seed %':>6} | {'smart %':>7} | {'diff':>7} | tokens seed/smart"
    )
    for row in rows:
        if not row.items:
            print_line(
                f"{'':{len(kind) + 2}}{row.file:<40} | {row.factor:>3}x | {row.budget:>7,} | "
                f"{0:>5} | (nothing that matters here: left out of the means)"
            )
            continue
        print_line(
            f"{'':{len(kind) + 2}}{row.file:<40} | {row.factor:>3}x | {row.budget:>7,} | "
            f"{row.items:>5,} | {row.seed_pct:>6.1f} | {row.smart_pct:>7.1f} | "
            f"{row.smart_pct - row.seed_pct:>+7.1f} | {row.seed_tokens:,}/{row.smart_tokens:,}"
            f"{'' if row.fits else ' OVER BUDGET'}"
        )


def _ratio(smart: float, seed: float) -> float:
    """smart / seed; when seed kept nothing, smart / 1 point (the details say so)."""
    return smart / seed if seed > 0 else smart / 1.0


def run() -> list[Result]:
    print_section(
        "what matters that survives compression to 1/5 and 1/20 of raw tokens: smart vs seed "
        "mode (mean % of each file's items, over the type's files)"
    )
    rows: list[Survival] = []
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-") as tmp:
        directory = Path(tmp)
        container = build_container(f"sqlite:///{directory}/bench.db", home=directory)
        try:
            service = container.artifact_compressor_service()
            counter = container.token_counter()
            for kind in TYPES:
                kind_rows = [
                    row
                    for path in corpus_files(kind)
                    for row in _measure_file(service, counter, kind, path)
                ]
                _print_type(kind.key, kind_rows)
                rows.extend(kind_rows)
        finally:
            container.store().dispose()

    results: list[Result] = []
    print_line("")
    print_line(
        f"{'type':<8} | {'over':>4} | {'files':>5} | {'seed %':>6} | {'smart %':>7} | "
        f"{'diff (points)':>13} | all fit"
    )
    differences: dict[int, list[float]] = {factor: [] for factor in OVER_BUDGET}
    seeds: dict[int, list[float]] = {factor: [] for factor in OVER_BUDGET}
    smarts: dict[int, list[float]] = {factor: [] for factor in OVER_BUDGET}
    for kind in TYPES:
        for factor in OVER_BUDGET:
            group = [r for r in rows if r.kind == kind.key and r.factor == factor and r.items]
            all_fit = all(r.fits for r in rows if r.kind == kind.key and r.factor == factor)
            seed_pct = mean(r.seed_pct for r in group)
            smart_pct = mean(r.smart_pct for r in group)
            differences[factor].append(smart_pct - seed_pct)
            seeds[factor].append(seed_pct)
            smarts[factor].append(smart_pct)
            print_line(
                f"{kind.key:<8} | {factor:>3}x | {len(group):>5} | {seed_pct:>6.1f} | "
                f"{smart_pct:>7.1f} | {smart_pct - seed_pct:>+13.1f} | "
                f"{'yes' if all_fit else 'NO'}"
            )
            results.append(
                Result(
                    name=f"survival {kind.key} {factor}x over budget (smart %)",
                    measured=smart_pct,
                    baseline=seed_pct,
                    ratio=_ratio(smart_pct, seed_pct),
                    unit="%",
                    target="smart >= seed, fits",
                    met=smart_pct >= seed_pct and all_fit,
                    baseline_label="seed %",
                    details={
                        "difference_points": smart_pct - seed_pct,
                        "all_fit_budget": all_fit,
                        "seed_kept_nothing": seed_pct == 0,
                        "files": [
                            {
                                "file": r.file,
                                "budget": r.budget,
                                "raw_tokens": r.raw_tokens,
                                "items": r.items,
                                "seed_pct": r.seed_pct,
                                "smart_pct": r.smart_pct,
                                "seed_tokens": r.seed_tokens,
                                "smart_tokens": r.smart_tokens,
                            }
                            for r in group
                        ],
                    },
                )
            )
    all_fit = all(r.fits for r in rows)
    for factor in OVER_BUDGET:
        seed_pct, smart_pct = mean(seeds[factor]), mean(smarts[factor])
        print_line(
            f"{'mean':<8} | {factor:>3}x | {'':>5} | {seed_pct:>6.1f} | {smart_pct:>7.1f} | "
            f"{mean(differences[factor]):>+13.1f} |"
        )
        results.append(
            Result(
                name=f"survival, mean of types, {factor}x over budget (smart %)",
                measured=smart_pct,
                baseline=seed_pct,
                ratio=_ratio(smart_pct, seed_pct),
                unit="%",
                target="smart >= seed, fits",
                met=smart_pct >= seed_pct and all_fit,
                baseline_label="seed %",
                details={"difference_points": mean(differences[factor])},
            )
        )
    fitting = sum((r.seed_tokens <= r.budget) + (r.smart_tokens <= r.budget) for r in rows)
    print_line(
        f"every content fits its budget (real cl100k_base count): "
        f"{'yes' if all_fit else 'NO'} ({fitting} of {len(rows) * 2} contents)"
    )
    return results
