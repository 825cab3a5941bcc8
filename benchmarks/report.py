"""Results: one row per benchmark, printed as a table and written as JSON."""

from __future__ import annotations

import json
import platform
import sys
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class Result:
    """A figure measured side by side with its baseline in the same run.

    `measured` and `baseline` are in `unit`; `ratio` is measured / baseline (or, for a
    difference, what the notes say). `met` is whether `measured` satisfies `target`.
    """

    name: str
    measured: float
    baseline: float
    ratio: float
    unit: str
    target: str
    met: bool
    baseline_label: str
    details: dict[str, Any] = field(default_factory=dict)


def _fmt(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.3f} s"
    return f"{value:.3f}{(' ' + unit) if unit else ''}"


def print_section(title: str) -> None:
    print(f"\n== {title} ==", flush=True)


def print_line(text: str) -> None:
    print(f"  {text}", flush=True)


def render_table(results: list[Result]) -> str:
    header = ("benchmark", "measured", "baseline", "ratio", "target", "met")
    rows = [
        (
            r.name,
            _fmt(r.measured, r.unit),
            f"{_fmt(r.baseline, r.unit)} ({r.baseline_label})",
            f"{r.ratio:.2f}x",
            r.target,
            "yes" if r.met else "NO",
        )
        for r in results
    ]
    widths = [max(len(str(row[i])) for row in (header, *rows)) for i in range(len(header))]

    def line(cells: tuple[str, ...]) -> str:
        return " | ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))

    separator = "-+-".join("-" * width for width in widths)
    return "\n".join([line(header), separator, *(line(row) for row in rows)])


def write_json(results: list[Result], path: Path | None = None) -> Path:
    target = path or RESULTS_DIR / "latest.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "all_met": all(r.met for r in results),
        "results": [asdict(r) for r in results],
    }
    target.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return target
