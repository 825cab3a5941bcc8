"""The context budget's markdown contract: what the planner prints, and the linter."""

from __future__ import annotations

import pytest

from cleveragents.adapters.budget_weights.heuristics_file import default_heuristics
from cleveragents.application.services.budget.context_budget_planner import (
    ContextBudgetPlanner,
    PlannedArtifact,
)
from cleveragents.domain.context_budget import (
    BudgetContractError,
    BudgetKind,
    BudgetReport,
    Tier,
)
from cleveragents.domain.context_budget_contract import (
    NONE_LINE,
    check_contract,
    first_violation,
    render_markdown,
)
from tests.fakes import FakeTokenCounter


def report(
    *artifacts: tuple[str, BudgetKind, int],
    available: int = 200_000,
    committed: int = 30_000,
    exact: bool = False,
) -> BudgetReport:
    planned = [
        PlannedArtifact(path=path, kind=kind, text="one two\n" * lines)
        for path, kind, lines in artifacts
    ]
    return ContextBudgetPlanner(FakeTokenCounter()).plan(
        planned, default_heuristics(), available=available, committed=committed, exact=exact
    )


GREEN = report(("spec.md", BudgetKind.SPEC, 100), ("src/app.py", BudgetKind.SOURCE, 300))

GREEN_MARKDOWN = """\
## Context Budget

Summary: Tier: green — projected 33,710 of 200,000 tokens (16.9%): committed 30,000 + 3,710 \
estimated for 2 artifacts (per-line weights)

### Per-Artifact Estimate

| Artifact | Kind | Lines | Tokens/Line | Estimated Tokens |
| --- | --- | ---: | ---: | ---: |
| spec.md | spec | 100 | 12.5 | 1,250 |
| src/app.py | source | 300 | 8.2 | 2,460 |
| Total |  | 400 |  | 3,710 |

### Recommended Compactions

Recommended Compactions: none
"""


def test_a_green_report_renders_exactly_the_contract() -> None:
    assert render_markdown(GREEN) == GREEN_MARKDOWN
    assert first_violation(GREEN_MARKDOWN) is None


def test_an_amber_report_lists_compactions_with_a_reason_each() -> None:
    amber = report(
        ("spec.md", BudgetKind.SPEC, 100),
        ("docs/module.md", BudgetKind.MODULE_DOC, 4000),
        ("src/app.py", BudgetKind.SOURCE, 5000),
        available=150_000,
    )
    text = render_markdown(amber)
    assert amber.tier is Tier.AMBER
    section = text.split("### Recommended Compactions\n\n")[1].splitlines()
    assert section == [
        "1. Compress docs/module.md (module_doc) from 50,000 to 12,500 tokens with "
        "`agents artifact compress docs/module.md --workdir . --budget 12500` — reference "
        "only: the outline and the sections the change touches are enough"
    ]
    assert "; after the compactions: 84,750 (56.5%, yellow)" in text
    assert first_violation(text) is None


def test_a_red_report_that_stays_red_asks_to_split_the_work_last() -> None:
    red = report(("spec.md", BudgetKind.SPEC, 16_000), ("a.py", BudgetKind.SOURCE, 100))
    text = render_markdown(red)
    items = text.split("### Recommended Compactions\n\n")[1].splitlines()
    assert items[0].startswith("1. Compress a.py (source) from 820 to 328 tokens")
    assert items[1].startswith(
        "2. Split the work into smaller stories — red remains after every allowed compaction"
    )
    assert "split the work into smaller stories" in text.splitlines()[2]
    assert first_violation(text) is None


def test_red_with_nothing_compactable_is_one_split_item() -> None:
    red = report(("spec.md", BudgetKind.SPEC, 16_000))
    items = render_markdown(red).split("### Recommended Compactions\n\n")[1].splitlines()
    assert items == [
        "1. Split the work into smaller stories — red, and nothing outside the protected items "
        "can be compacted"
    ]


def test_amber_with_nothing_compactable_says_so_without_evicting_anything() -> None:
    amber = report(("spec.md", BudgetKind.SPEC, 10_000))
    assert amber.tier is Tier.AMBER
    (item,) = render_markdown(amber).split("### Recommended Compactions\n\n")[1].splitlines()
    assert item.startswith("1. Start without compaction — nothing outside the protected items")
    assert "the active decision packet" in item


def test_exact_reports_show_the_count_and_the_error_beside_the_estimate() -> None:
    text = render_markdown(report(("spec.md", BudgetKind.SPEC, 100), exact=True))
    assert (
        "| Artifact | Kind | Lines | Tokens/Line | Estimated Tokens | Exact Tokens | Error |"
        in (text)
    )
    assert "| spec.md | spec | 100 | 12.5 | 1,250 | 200 | +525.0% |" in text
    assert "200 counted with fake-words for 1 artifact (the per-line estimate: 1,250, +525.0%)" in (
        text
    )
    assert first_violation(text) is None


def test_awkward_paths_stay_in_their_cell_and_on_their_line() -> None:
    paths = ["a|b.py", "new\nline.py", "back\\slash|.py", " padded ", "tab\there.py"]
    text = render_markdown(
        report(("spec.md", BudgetKind.SPEC, 1), *((p, BudgetKind.SOURCE, 1) for p in paths))
    )
    assert "| a\\|b.py | source |" in text
    assert "| new\\nline.py | source |" in text
    assert '| " padded " | source |' in text
    assert first_violation(text) is None


# --- the linter -------------------------------------------------------------------------------


def broken(old: str, new: str, source: str = GREEN_MARKDOWN) -> str:
    assert old in source
    return source.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "the document ends before '## Context Budget'"),
        (broken("## Context Budget", "# Context Budget"), 1, "expected '## Context Budget'"),
        (broken("Summary: Tier: green", "Summary: green"), 3, "the single line 'Summary: Tier:"),
        (broken("Tier: green", "Tier: blue"), 3, "Summary: Tier: <green|yellow|amber|red>"),
        (
            broken("\n### Per-Artifact", "Summary: Tier: red\n\n### Per-Artifact"),
            4,
            "a second Summary line",
        ),
        (broken("| Artifact | Kind |", "| Path | Kind |"), 7, "expected the table header"),
        (broken("| --- | --- | ---: |", "| --- | ---: |"), 8, "separator row of 5 cells"),
        (broken("| spec.md | spec | 100 |", "| spec.md | spec | 1 | 100 |"), 9, "5 cells"),
        (broken("| spec | 100 |", "| specification | 100 |"), 9, "unknown kind 'specification'"),
        (broken("| 12.5 | 1,250 |", "| 12.5 | 1250.5 |"), 9, "Estimated Tokens must be a whole"),
        (broken("| 12.5 | 1,250 |", "| heavy | 1,250 |"), 9, "Tokens/Line must be a number"),
        (broken("| Total |  | 400 |", "| Total |  | 401 |"), 11, "Total of Lines must be the sum"),
        (broken("| Total |", "| Sum |"), 11, "the last table row must be the 'Total' row"),
        (
            broken(
                "| spec.md | spec | 100 | 12.5 | 1,250 |\n"
                "| src/app.py | source | 300 | 8.2 | 2,460 |\n",
                "",
            ),
            9,
            "a row per artifact (at least one) and a last Total row",
        ),
        (broken("### Recommended Compactions", "### Compactions"), 13, "expected '### Recomm"),
        (broken(NONE_LINE, "Recommended Compactions: None"), 15, "takes exactly"),
        (broken(NONE_LINE, "1. Compress a.py — big"), 15, "tier green takes exactly"),
        (GREEN_MARKDOWN + "\nextra\n", 17, "unexpected line after the compactions"),
    ],
)
def test_the_linter_names_the_first_violation_and_its_line(
    text: str, line: int, message: str
) -> None:
    violation = first_violation(text)
    assert violation is not None
    assert (violation.line, message in violation.message) == (line, True), violation
    with pytest.raises(BudgetContractError, match=f"^line {line}: "):
        check_contract(text)


AMBER_MARKDOWN = render_markdown(
    report(("spec.md", BudgetKind.SPEC, 100), ("docs/m.md", BudgetKind.MODULE_DOC, 9_000))
)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("1. Compress", "Compress", "takes an ordered list"),
        ("1. Compress", "2. Compress", "numbered 1, 2, ...: expected 1."),
        (" — reference only", " because reference only", "takes an ordered list"),
        (
            "1. Compress",
            "1. Split the work into smaller stories — no room\n2. Compress",
            "only a red",
        ),
    ],
)
def test_amber_and_red_need_a_numbered_list_of_reasons(old: str, new: str, message: str) -> None:
    assert "Tier: amber" in AMBER_MARKDOWN
    violation = first_violation(broken(old, new, AMBER_MARKDOWN))
    assert violation is not None
    assert message in violation.message


def test_none_is_refused_for_amber() -> None:
    lines = AMBER_MARKDOWN.splitlines()
    text = "\n".join([*lines[: lines.index("### Recommended Compactions") + 2], NONE_LINE])
    violation = first_violation(text)
    assert violation is not None
    assert "tier amber takes an ordered list" in violation.message


def test_splitting_the_work_must_close_the_list() -> None:
    red = render_markdown(
        report(("spec.md", BudgetKind.SPEC, 16_000), ("a.py", BudgetKind.SOURCE, 100))
    )
    items = red.split("### Recommended Compactions\n\n")[1].splitlines()
    swapped = red.replace(
        "\n".join(items),
        "\n".join(["1." + items[1][2:], "2." + items[0][2:]]),
    )
    violation = first_violation(swapped)
    assert violation is not None
    assert "must be the last item" in violation.message
