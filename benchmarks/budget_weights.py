"""Derive the context budget's per-line weights from the corpus: ``python -m
benchmarks.budget_weights``.

Every file of a corpus folder is read, its lines counted (`count_lines`, as the planner counts
them) and its tokens counted with the real tokenizer (cl100k_base). A kind's weight is its
folder's pooled ratio, total tokens over total lines (a long file weighs more than a short one),
rounded **up** to the next tenth, so that the estimate errs toward warning. The kinds that share a
folder share its measurement: the corpus's markdown (Rust RFCs) stands for specs, test plans,
module docs and other prose; its Python source (pallets/click) for source of every language.

The script prints the measurements and the ``[weights]`` table; the shipped
``cleveragents/adapters/budget_weights/weights.default.toml`` holds exactly that table (a test
fails when they differ).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.domain.context_budget import BudgetKind, count_lines

_REPO = Path(__file__).resolve().parent.parent
CORPUS = _REPO.parent / "shared" / "corpus"
ENCODING = "cl100k_base"

MEASURED_FOLDERS: dict[str, tuple[BudgetKind, ...]] = {
    "markdown": (
        BudgetKind.SPEC,
        BudgetKind.TEST_PLAN,
        BudgetKind.MODULE_DOC,
        BudgetKind.DOC,
    ),
    "code": (BudgetKind.SOURCE,),
    "diffs": (BudgetKind.DIFF,),
    "logs": (BudgetKind.LOG,),
    "json": (BudgetKind.JSON,),
}
"""Which corpus folder measures which kinds."""


@dataclass(frozen=True, slots=True)
class FileCount:
    path: Path
    lines: int
    tokens: int


@dataclass(frozen=True, slots=True)
class FolderMeasurement:
    """One corpus folder: its files' lines and exact tokens, and the weight they give."""

    folder: str
    kinds: tuple[BudgetKind, ...]
    files: tuple[FileCount, ...]

    @property
    def lines(self) -> int:
        return sum(f.lines for f in self.files)

    @property
    def tokens(self) -> int:
        return sum(f.tokens for f in self.files)

    @property
    def weight(self) -> Decimal:
        return weight_of(self.tokens, self.lines)


def weight_of(tokens: int, lines: int) -> Decimal:
    """``tokens / lines`` rounded up to the next tenth (exact: no floating point)."""
    tenths = math.ceil(Fraction(tokens * 10, max(lines, 1)))
    return Decimal(tenths).scaleb(-1)


def files_in(directory: Path) -> list[Path]:
    files = sorted(path for path in directory.iterdir() if path.is_file())
    if not files:
        raise FileNotFoundError(f"no files in {directory}")
    return files


def count_files(paths: Sequence[Path], counter: TokenCounter) -> tuple[FileCount, ...]:
    counts = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        counts.append(FileCount(path, count_lines(text), counter.count(text)))
    return tuple(counts)


def measure(counter: TokenCounter, corpus: Path = CORPUS) -> list[FolderMeasurement]:
    """Every measured folder of `corpus`, counted with `counter`."""
    return [
        FolderMeasurement(folder, kinds, count_files(files_in(corpus / folder), counter))
        for folder, kinds in MEASURED_FOLDERS.items()
    ]


def derived_weights(measurements: Sequence[FolderMeasurement]) -> dict[BudgetKind, Decimal]:
    """The weight of every kind, in `BudgetKind` order."""
    by_kind = {kind: m.weight for m in measurements for kind in m.kinds}
    return {kind: by_kind[kind] for kind in BudgetKind}


def weights_table(weights: dict[BudgetKind, Decimal]) -> str:
    """The ``[weights]`` table of a weights file."""
    return "\n".join(["[weights]", *(f"{kind.value} = {w}" for kind, w in weights.items())])


def main() -> None:
    from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter

    measurements = measure(TiktokenCounter(ENCODING))
    print(f"# tokens per line, counted with {ENCODING} over {CORPUS}")
    for m in measurements:
        kinds = ", ".join(kind.value for kind in m.kinds)
        print(
            f"# {m.folder:<9} {len(m.files)} files {m.lines:>6,} lines {m.tokens:>8,} tokens "
            f"-> {m.tokens / m.lines:7.3f}/line, weight {m.weight} ({kinds})"
        )
    print(weights_table(derived_weights(measurements)))


if __name__ == "__main__":
    main()
