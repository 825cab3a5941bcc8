"""The context budget's output contract: the markdown the planner prints, and its linter.

The document, in this order (blank lines anywhere between):

- ``## Context Budget``;
- a single ``Summary: Tier: <green|yellow|amber|red> — ...`` line;
- ``### Per-Artifact Estimate`` and a table, one row per artifact and a last ``Total`` row whose
  numbers are the columns' sums (two extra columns, exact count and error, with ``--exact``);
- ``### Recommended Compactions``: exactly ``Recommended Compactions: none`` for green and
  yellow; an ordered list ``N. <action> — <reason>`` for amber and red, where a
  ``Split the work into smaller stories`` item may only close a red list.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from fractions import Fraction
from pathlib import PurePosixPath

from cleveragents.domain.context_budget import (
    PROTECTED_ITEMS,
    BudgetContractError,
    BudgetKind,
    BudgetReport,
    Compaction,
    Tier,
    relative_error,
)

HEADING = "## Context Budget"
TABLE_HEADING = "### Per-Artifact Estimate"
COMPACTIONS_HEADING = "### Recommended Compactions"
NONE_LINE = "Recommended Compactions: none"
SPLIT_ACTION = "Split the work into smaller stories"
TOTAL = "Total"

ESTIMATE_COLUMNS = ("Artifact", "Kind", "Lines", "Tokens/Line", "Estimated Tokens")
EXACT_COLUMNS = (*ESTIMATE_COLUMNS, "Exact Tokens", "Error")
_ALIGNMENT = {"Artifact": "---", "Kind": "---"}  # the others are numbers: right-aligned

_SOURCE_NOTE = {"option": "", "project": ", the project's window", "default": ", default window"}


def render_markdown(report: BudgetReport) -> str:
    """The report as the contract's markdown (ends with a newline)."""
    lines = [HEADING, "", _summary(report), "", TABLE_HEADING, "", *_table(report), ""]
    lines += [COMPACTIONS_HEADING, "", *_compaction_lines(report)]
    return "\n".join(lines) + "\n"


def _n(value: int) -> str:
    return f"{value:,}"


def _percent(part: int, whole: int) -> str:
    return f"{float(Fraction(part * 100, whole)):.1f}%"


def _signed_percent(error: Fraction | None) -> str:
    return "-" if error is None else f"{float(error * 100):+.1f}%"


def _summary(report: BudgetReport) -> str:
    count = len(report.artifacts)
    artifacts = f"{count} artifact{'s' if count != 1 else ''}"
    if report.exact:
        used = (
            f"{_n(report.artifact_tokens)} counted with {report.encoding} for {artifacts} "
            f"(the per-line estimate: {_n(report.estimated_total)}, "
            f"{_signed_percent(relative_error(report.estimated_total, report.exact_total))})"
        )
    else:
        used = f"{_n(report.estimated_total)} estimated for {artifacts} (per-line weights)"
    text = (
        f"Summary: Tier: {report.tier.value} — projected {_n(report.projected)} of "
        f"{_n(report.available)} tokens ({_percent(report.projected, report.available)}"
        f"{_SOURCE_NOTE[report.available_source]}): committed {_n(report.committed)} + {used}"
    )
    if report.tier.needs_compaction:
        after = report.projected_after_compactions
        label = "every allowed compaction" if report.split_recommended else "the compactions"
        text += (
            f"; after {label}: {_n(after)} ({_percent(after, report.available)}, "
            f"{report.tier_after_compactions.value})"
        )
        if report.split_recommended:
            text += f": {SPLIT_ACTION[0].lower()}{SPLIT_ACTION[1:]}"
    return _one_line(text)


def _one_line(text: str) -> str:
    """Control characters (a newline in a file name) shown escaped: every item stays one line."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


def _cell(text: str) -> str:
    escaped = _one_line(text.replace("\\", "\\\\").replace("|", "\\|"))
    # A markdown cell loses its outer spaces: quote a path that has them (or is empty).
    return escaped if escaped and escaped == escaped.strip() else f'"{escaped}"'


def _row(cells: tuple[str, ...] | list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(report: BudgetReport) -> list[str]:
    columns = EXACT_COLUMNS if report.exact else ESTIMATE_COLUMNS
    rows = [_row(columns), _row([_ALIGNMENT.get(column, "---:") for column in columns])]
    for artifact in report.artifacts:
        cells = [
            _cell(artifact.path),
            artifact.kind.value,
            _n(artifact.lines),
            format(artifact.weight, "f"),
            _n(artifact.estimated_tokens),
        ]
        if report.exact:
            cells += [_n(artifact.tokens), _signed_percent(artifact.error)]
        rows.append(_row(cells))
    total = [TOTAL, "", _n(sum(a.lines for a in report.artifacts)), "", _n(report.estimated_total)]
    if report.exact:
        error = relative_error(report.estimated_total, report.exact_total)
        total += [_n(report.artifact_tokens), _signed_percent(error)]
    rows.append(_row(total))
    return rows


def _compaction_lines(report: BudgetReport) -> list[str]:
    if not report.tier.needs_compaction:
        return [NONE_LINE]
    items = [_compaction_item(compaction) for compaction in report.compactions]
    if report.split_recommended:
        after = report.projected_after_compactions
        why = (
            f"red remains after every allowed compaction ({_n(after)} of "
            f"{_n(report.available)} tokens, {_percent(after, report.available)})"
            if report.compactions
            else "red, and nothing outside the protected items can be compacted"
        )
        items.append(f"{SPLIT_ACTION} — {why}")
    elif not items:
        items.append(
            "Start without compaction — nothing outside the protected items "
            f"({', '.join(PROTECTED_ITEMS)}) can be compacted; compact the conversation "
            "(`agents context compact`) as soon as it grows"
        )
    return [_one_line(f"{number}. {item}") for number, item in enumerate(items, start=1)]


def compress_command(compaction: Compaction) -> str:
    """The command that performs `compaction` (``agents artifact compress PATH --budget N``).

    `agents artifact compress` takes a path relative to its work directory and refuses an
    absolute one, so an absolute path becomes its file name with ``--workdir`` its folder, and
    a relative one is pinned to the current directory with ``--workdir .`` (it would otherwise
    be read from $CLOSEDLOOP_WORKDIR when that is set)."""
    path = PurePosixPath(compaction.path)
    if path.is_absolute():
        name, workdir = path.name, str(path.parent)
    else:
        name, workdir = compaction.path, "."
    return (
        f"agents artifact compress {shlex.quote(name)} --workdir {shlex.quote(workdir)} "
        f"--budget {compaction.tokens_after}"
    )


def _compaction_item(compaction: Compaction) -> str:
    return (
        f"Compress {compaction.path} ({compaction.kind.value}) from "
        f"{_n(compaction.tokens_before)} to {_n(compaction.tokens_after)} tokens with "
        f"`{compress_command(compaction)}` — {compaction.reason}"
    )


# --- The linter ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ContractViolation:
    """The first place where a document breaks the contract (1-based line)."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


_SUMMARY = re.compile(r"^Summary: Tier: (green|yellow|amber|red)(?: — \S.*)?$")
_ITEM = re.compile(r"^(\d+)\. (\S.*?) — (\S.*)$")
_PIPE = re.compile(r"(?<!\\)\|")
_SEPARATOR_CELL = re.compile(r"^:?-{3,}:?$")
_INTEGER = re.compile(r"^\d{1,3}(?:,\d{3})*$")
_WEIGHT = re.compile(r"^\d+(?:\.\d+)?$")
_ERROR = re.compile(r"^(?:[+-]\d+\.\d%|-)$")
_KINDS = frozenset(kind.value for kind in BudgetKind)
_SUMMED = ("Lines", "Estimated Tokens", "Exact Tokens")


class _LintError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.violation = ContractViolation(line, message)


def first_violation(text: str) -> ContractViolation | None:
    """The first way `text` breaks the contract, or None when it follows it."""
    lines = [
        (number, line.rstrip())
        for number, line in enumerate(text.split("\n"), start=1)
        if line.strip()
    ]
    try:
        _Document(lines).check()
    except _LintError as lint:
        return lint.violation
    return None


def check_contract(text: str) -> None:
    """Raise `BudgetContractError` (naming the line) unless `text` follows the contract."""
    violation = first_violation(text)
    if violation is not None:
        raise BudgetContractError(str(violation))


class _Document:
    """A cursor over the non-blank lines, checked top to bottom."""

    def __init__(self, lines: list[tuple[int, str]]) -> None:
        self.lines = lines
        self.position = 0
        self.last_line = lines[-1][0] if lines else 1

    def _peek(self) -> tuple[int, str] | None:
        return self.lines[self.position] if self.position < len(self.lines) else None

    def _next(self, expected: str) -> tuple[int, str]:
        current = self._peek()
        if current is None:
            raise _LintError(self.last_line, f"the document ends before {expected}")
        self.position += 1
        return current

    def _expect(self, exact: str) -> None:
        number, line = self._next(f"'{exact}'")
        if line != exact:
            if line.startswith("Summary:") and exact != HEADING:
                raise _LintError(number, "a second Summary line: the contract has a single one")
            raise _LintError(number, f"expected '{exact}', found '{_shorten(line)}'")

    def check(self) -> None:
        self._expect(HEADING)
        tier = self._summary()
        self._expect(TABLE_HEADING)
        self._table()
        self._expect(COMPACTIONS_HEADING)
        self._compactions(tier)
        leftover = self._peek()
        if leftover is not None:
            raise _LintError(leftover[0], f"unexpected line after the compactions: '{leftover[1]}'")

    def _summary(self) -> Tier:
        number, line = self._next("the Summary line")
        match = _SUMMARY.match(line)
        if match is None:
            raise _LintError(
                number,
                "expected the single line 'Summary: Tier: <green|yellow|amber|red> — ...', "
                f"found '{_shorten(line)}'",
            )
        return Tier(match.group(1))

    def _table(self) -> None:
        number, line = self._next("the per-artifact table")
        columns = tuple(_cells(line) or ())
        if columns not in (ESTIMATE_COLUMNS, EXACT_COLUMNS):
            raise _LintError(
                number,
                f"expected the table header '{_row(ESTIMATE_COLUMNS)}' (or with exact "
                f"counts '{_row(EXACT_COLUMNS)}'), found '{_shorten(line)}'",
            )
        number, line = self._next("the table's separator row")
        separator = _cells(line)
        if (
            separator is None
            or len(separator) != len(columns)
            or not all(_SEPARATOR_CELL.match(cell) for cell in separator)
        ):
            raise _LintError(
                number, f"expected a separator row of {len(columns)} cells like '---:'"
            )
        rows: list[tuple[int, list[str]]] = []
        while (current := self._peek()) is not None and current[1].startswith("|"):
            self.position += 1
            cells = _cells(current[1])
            if cells is None or len(cells) != len(columns):
                raise _LintError(current[0], f"a table row must have {len(columns)} cells")
            rows.append((current[0], cells))
        if len(rows) < 2:
            raise _LintError(
                rows[0][0] if rows else number,
                "the table needs a row per artifact (at least one) and a last Total row",
            )
        *artifacts, (total_line, total) = rows
        for row_line, cells in artifacts:
            _check_artifact_row(row_line, dict(zip(columns, cells, strict=True)))
        _check_total_row(total_line, columns, total, [cells for _, cells in artifacts])

    def _compactions(self, tier: Tier) -> None:
        if not tier.needs_compaction:
            number, line = self._next(f"'{NONE_LINE}'")
            if line != NONE_LINE:
                raise _LintError(
                    number,
                    f"tier {tier.value} takes exactly '{NONE_LINE}', found '{_shorten(line)}'",
                )
            return
        items = 0
        while (current := self._peek()) is not None:
            number, line = current
            match = _ITEM.match(line)
            if match is None:
                if items:
                    return  # the caller reports the line as unexpected
                raise _LintError(
                    number,
                    f"tier {tier.value} takes an ordered list '1. <action> — <reason>', "
                    f"found '{_shorten(line)}'",
                )
            items += 1
            self.position += 1
            if int(match.group(1)) != items:
                raise _LintError(number, f"the list must be numbered 1, 2, ...: expected {items}.")
            if match.group(2) == SPLIT_ACTION:
                if tier is not Tier.RED:
                    raise _LintError(number, "only a red budget may ask to split the work")
                following = self._peek()
                if following is not None and _ITEM.match(following[1]):
                    raise _LintError(following[0], "splitting the work must be the last item")
        if not items:
            raise _LintError(
                self.last_line, f"tier {tier.value} needs at least one compaction item"
            )


def _cells(line: str) -> list[str] | None:
    if not (line.startswith("|") and line.endswith("|") and len(line) > 1):
        return None
    if line.endswith("\\|") and not line.endswith("\\\\|"):
        return None
    return [cell.strip() for cell in _PIPE.split(line[1:-1])]


def _check_artifact_row(number: int, cells: dict[str, str]) -> None:
    if not cells["Artifact"]:
        raise _LintError(number, "an artifact row needs the artifact's path")
    if cells["Kind"] not in _KINDS:
        raise _LintError(
            number, f"unknown kind '{cells['Kind']}'; expected one of {', '.join(sorted(_KINDS))}"
        )
    if not _WEIGHT.match(cells["Tokens/Line"]):
        raise _LintError(number, f"Tokens/Line must be a number, found '{cells['Tokens/Line']}'")
    for column in _SUMMED:
        if column in cells and not _INTEGER.match(cells[column]):
            raise _LintError(number, f"{column} must be a whole number, found '{cells[column]}'")
    if "Error" in cells and not _ERROR.match(cells["Error"]):
        raise _LintError(
            number, f"Error must be a signed percentage like +1.5%, found '{cells['Error']}'"
        )


def _check_total_row(
    number: int, columns: tuple[str, ...], total: list[str], rows: list[list[str]]
) -> None:
    cells = dict(zip(columns, total, strict=True))
    if cells["Artifact"] != TOTAL:
        raise _LintError(number, f"the last table row must be the '{TOTAL}' row")
    for column in _SUMMED:
        if column not in cells:
            continue
        index = columns.index(column)
        expected = sum(int(row[index].replace(",", "")) for row in rows)
        if not _INTEGER.match(cells[column]) or int(cells[column].replace(",", "")) != expected:
            raise _LintError(
                number, f"the Total of {column} must be the sum of its rows ({expected:,})"
            )


def _shorten(line: str, limit: int = 60) -> str:
    return line if len(line) <= limit else line[: limit - 3] + "..."
